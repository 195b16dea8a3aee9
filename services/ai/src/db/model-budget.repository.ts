import type { EntityManager } from '@pp/db';

/**
 * Takes one model call from the user's budget of this hour, in one statement (two replicas can never
 * both take the last one); false when the budget is spent.
 */
export async function takeModelCall(em: EntityManager, userId: string, perHour: number): Promise<boolean> {
  if (perHour <= 0) return false;
  const rows = await em.getConnection().execute(
    `insert into model_budget (user_id, window_start, calls) values (?, date_trunc('hour', now()), 1)
     on conflict (user_id, window_start) do update set calls = model_budget.calls + 1
       where model_budget.calls < ?
     returning calls`,
    [userId, perHour],
  );
  return rows.length > 0;
}

/** Drops the counts of hours gone by. */
export async function pruneModelBudget(em: EntityManager): Promise<number> {
  const result = await em
    .getConnection()
    .execute(`delete from model_budget where window_start < date_trunc('hour', now())`, [], 'run');
  return (result as { affectedRows?: number }).affectedRows ?? 0;
}
