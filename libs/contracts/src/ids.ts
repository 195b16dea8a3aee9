const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path's id can name anything: a UUID (any case). Anything else is unknown, never a query. */
export const isUuid = (value: string) => UUID.test(value);
