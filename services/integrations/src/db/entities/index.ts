import { eventEntities } from '@pp/events';

/** The outbox and processed-events tables; the unit's own tables are read and written with SQL in db/. */
export const entities = [...eventEntities];
