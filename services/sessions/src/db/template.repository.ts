import type { EntityManager } from '@pp/db';
import { Template } from './entities/index.ts';
import { rows } from './sql.ts';

/** A template by id, whoever owns it (the caller checks the owner), or null. */
export const findTemplateById = (em: EntityManager, id: number) => em.findOne(Template, { id });

/** Deletes a template; false when it was gone already (deleted at the same moment by another request). */
export const deleteTemplateById = async (em: EntityManager, id: number) =>
  (await em.nativeDelete(Template, { id })) > 0;

export interface TemplateSummaryRow {
  id: number;
  name: string;
  description: string;
  settings: Template['settings'];
  stories_count: number;
  created_at: Date;
  updated_at: Date;
}

/** One page of the owner's templates by name, without their stories (only how many), and how many there are. */
export async function listTemplates(em: EntityManager, ownerId: string, page: number, perPage: number) {
  const found = await rows<TemplateSummaryRow & { total: number }>(
    em,
    `select id, name, description, settings, jsonb_array_length(stories) as stories_count, created_at, updated_at,
            count(*) over ()::int as total
       from templates where owner_id = ? order by name, id limit ? offset ?`,
    [ownerId, perPage, (page - 1) * perPage],
  );
  const total = found[0]?.total ?? (page > 1 ? await em.count(Template, { ownerId }) : 0);
  return { templates: found.map(({ total: _total, ...t }) => t), total };
}
