import { eventEntities } from '@pp/events';

/**
 * The unit's tables known to MikroORM: the outbox and processed-events tables every unit has. Its own
 * tables (webhooks, session owners, deliveries, attempts) are read and written in plain SQL by the
 * repositories beside this folder: a delivery's claim and its outcome are single set-based statements.
 */
export const entities = [...eventEntities];
