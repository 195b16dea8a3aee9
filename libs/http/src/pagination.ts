import { z } from 'zod';
import { urlInteger } from './url-integer.ts';

/** The last page a list may be asked for (a PostgreSQL integer): later ones are 422, not an empty page. */
const MAX_PAGE = 2_147_483_647;

/**
 * The query of every paginated list of the API: `page` from 1 and `per_page` 1..100, 15 by default
 * (the spec's default for `GET /sessions`, kept by every list so that clients page them all alike).
 */
export const pageQuery = z.object({
  page: urlInteger(z.number().int().min(1).max(MAX_PAGE).default(1)).meta({ description: 'From 1' }),
  per_page: urlInteger(z.number().int().min(1).max(100).default(15)).meta({ description: '1..100' }),
});

/** Where a page stands in its list: the `meta` of every paginated answer. */
export const pageMetaSchema = z
  .object({
    current_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    last_page: z.number().int(),
  })
  .meta({ id: 'PageMeta' });

export type PageMeta = z.infer<typeof pageMetaSchema>;

export function pageMeta(page: number, perPage: number, total: number): PageMeta {
  return { current_page: page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) };
}

/**
 * The same query for a list that answers whole when no page is asked for: `page` and `per_page`
 * have the same bounds and no defaults (the caller applies them once either is given).
 */
export const optionalPageQuery = z.object({
  page: urlInteger(z.number().int().min(1).max(MAX_PAGE).optional()).meta({ description: 'From 1' }),
  per_page: urlInteger(z.number().int().min(1).max(100).optional()).meta({ description: '1..100' }),
});
