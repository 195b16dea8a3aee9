import { preparedRows, type EntityManager } from '@pp/db';

/**
 * Runs one statement of this unit (a named prepared statement: parsed and planned once per pooled
 * connection), on its own. Every write of the unit is one statement, so none needs a transaction but
 * a registration, which takes its owner's turn first.
 */
export const query = <T>(em: EntityManager, name: string, text: string, values: unknown[] = []) =>
  preparedRows<T>(em, { name: `webhooks_${name}`, text }, values);

export const asDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));
export const asDateOrNull = (value: Date | string | null) => (value === null ? null : asDate(value));
