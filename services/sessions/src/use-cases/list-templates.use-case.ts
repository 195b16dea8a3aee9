import { listTemplates } from '../db/template.repository.ts';
import type { SessionsContext } from './shared/context.ts';

/** One page of the owner's templates, by name: their settings and how many stories each holds. */
export const listOwnTemplates = (ctx: SessionsContext, ownerId: string, page: number, perPage: number) =>
  listTemplates(ctx.em, ownerId, page, perPage);
