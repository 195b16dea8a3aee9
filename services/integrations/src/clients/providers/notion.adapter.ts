import { z } from 'zod';
import { estimateValue, type ExternalIssue } from '../../domain/issues.ts';
import { ProviderRejectedError } from '../../errors.ts';
import {
  root,
  text,
  tokenOf,
  type AdapterDeps,
  type IssueAdapter,
  type ProviderConnection,
} from './adapter.ts';
import { jsonOf } from './provider-http.ts';

const PROVIDER = 'Notion';
const VERSION = '2025-09-03';
const ID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/**
 * What the adapter reads of Notion's answers (see jsonOf: a page without its id refuses the answer).
 * A property's value sits under the key of its type; the types read here are checked wherever they
 * appear, the others let through unread.
 */
const richText = z.array(z.looseObject({ plain_text: z.string().nullish() }));
const property = z.looseObject({
  type: z.string().nullish(),
  title: richText.nullish(),
  rich_text: richText.nullish(),
  number: z.number().nullish(),
  select: z.looseObject({ name: z.string() }).nullish(),
  multi_select: z.array(z.looseObject({ name: z.string() })).nullish(),
});
type Property = z.output<typeof property>;
const notionPage = z.looseObject({
  id: z.string().regex(ID),
  url: z.string().nullish(),
  properties: z.record(z.string(), property),
});
type Page = z.output<typeof notionPage>;
// a data source's query may answer other objects beside its pages (a data source): only pages are issues
const notPage = z.looseObject({ object: z.string().refine((o) => o !== 'page') }).transform(() => null);
const queryResult = z.looseObject({
  results: z.array(z.union([notPage, notionPage])),
  has_more: z.boolean(),
  next_cursor: z.string().nullish(),
});
const dataSource = z.looseObject({ properties: z.record(z.string(), z.looseObject({ type: z.string() })) });
const notionUser = z.looseObject({ id: z.string(), name: z.string().nullish() });
// a write answers what it wrote: the page updated, the comment created
const updatedPage = z.looseObject({ object: z.literal('page'), id: z.string().regex(ID) });
const notionComment = z.looseObject({ object: z.literal('comment'), id: z.string() });

const plain = (value: z.output<typeof richText> | null | undefined) =>
  (value ?? []).map((t) => t.plain_text ?? '').join('');

/** The text of a property, whatever its type (title, rich_text, number, select). */
function propertyText(p: Property | undefined): string | null {
  if (!p) return null;
  if (p.type === 'title' || p.type === 'rich_text') return plain(p[p.type]);
  if (p.type === 'number') return p.number === null || p.number === undefined ? null : String(p.number);
  if (p.type === 'select') return p.select?.name ?? null;
  return null;
}

/** Notion's API (version 2025-09-03): a database's data source queried, properties by their exact names. */
export function notionAdapter(deps: AdapterDeps): IssueAdapter {
  const api = root(deps.apiUrl);
  const http = (c: ProviderConnection) =>
    deps.http({
      connectionId: c.id,
      auth: async () => ({
        Authorization: `Bearer ${tokenOf(await c.credentials())}`,
        'Notion-Version': VERSION,
      }),
    });
  const source = (c: ProviderConnection) =>
    `${api}/data_sources/${encodeURIComponent(text(c.settings.data_source_id))}`;
  const schema = async (c: ProviderConnection) =>
    jsonOf(PROVIDER, await http(c)({ url: source(c), notFound: 'the data source' }), dataSource);
  const toIssue = (c: ProviderConnection, page: Page): ExternalIssue => {
    const labels =
      page.properties.Tags?.type === 'multi_select' ? (page.properties.Tags.multi_select ?? []) : [];
    return {
      externalId: page.id,
      title: propertyText(page.properties[text(c.settings.title_property)]) ?? '',
      description: '',
      acceptanceCriteria: '',
      url: page.url ?? null,
      labels: labels.map((l) => l.name),
      estimate: propertyText(page.properties[text(c.settings.estimate_property)]),
    };
  };
  return {
    source: (s) => `notion:${text(s.data_source_id)}`.toLowerCase(),
    idOf: (id) => {
      if (!ID.test(id)) return id;
      const hex = id.replaceAll('-', '').toLowerCase();
      return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join(
        '-',
      );
    },
    urls: () => [],
    async test(c) {
      const me = jsonOf(PROVIDER, await http(c)({ url: `${api}/users/me` }), notionUser);
      const { properties } = await schema(c);
      const warnings: string[] = [];
      if (properties[text(c.settings.title_property)]?.type !== 'title')
        warnings.push(`no title property named ${text(c.settings.title_property)}`);
      const estimate = text(c.settings.estimate_property);
      if (estimate && !['number', 'select', 'rich_text'].includes(properties[estimate]?.type ?? ''))
        warnings.push(`no number, select or text property named ${estimate}: estimates will be comments`);
      return { account: me.name ?? me.id, warnings };
    },
    async page(c, cursor) {
      const res = await http(c)({
        method: 'POST',
        url: `${source(c)}/query`,
        data: { page_size: 100, ...(cursor ? { start_cursor: cursor } : {}) },
        notFound: 'the data source',
      });
      const body = jsonOf(PROVIDER, res, queryResult);
      return {
        items: body.results.filter((p) => p !== null).map((p) => toIssue(c, p)),
        next: body.has_more && body.next_cursor ? body.next_cursor : undefined,
      };
    },
    async fetch(c, ids) {
      const found: ExternalIssue[] = [];
      for (const id of ids.filter((i) => ID.test(i))) {
        const res = await http(c)({ url: `${api}/pages/${id}`, notFound: `page ${id}` }).catch(
          (err: { code?: string }) => {
            if (err.code === 'provider_not_found') return undefined;
            throw err;
          },
        );
        if (res) found.push(toIssue(c, jsonOf(PROVIDER, res, notionPage)));
      }
      return found;
    },
    async writeEstimate(c, id, estimate) {
      if (!ID.test(id)) throw new ProviderRejectedError(PROVIDER, 'not a page id');
      const name = text(c.settings.estimate_property);
      const type = name ? (await schema(c)).properties[name]?.type : undefined;
      const value = estimateValue(estimate);
      const property =
        type === 'number' && typeof value === 'number'
          ? { number: value }
          : type === 'select'
            ? { select: { name: estimate } }
            : type === 'rich_text'
              ? { rich_text: [{ text: { content: estimate } }] }
              : undefined;
      if (property) {
        const res = await http(c)({
          method: 'PATCH',
          url: `${api}/pages/${id}`,
          data: { properties: { [name]: property } },
          notFound: `page ${id}`,
        });
        jsonOf(PROVIDER, res, updatedPage);
        return ['field'];
      }
      const res = await http(c)({
        method: 'POST',
        url: `${api}/comments`,
        data: { parent: { page_id: id }, rich_text: [{ text: { content: `Estimate: ${estimate}` } }] },
      });
      jsonOf(PROVIDER, res, notionComment);
      return ['comment'];
    },
  };
}
