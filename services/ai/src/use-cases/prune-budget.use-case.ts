import type { EntityManager } from '@pp/db';
import { pruneModelBudget } from '../db/model-budget.repository.ts';

/** Forgets the model calls of hours gone by: only the current hour counts against a budget. */
export async function pruneBudget(em: EntityManager): Promise<void> {
  await pruneModelBudget(em);
}
