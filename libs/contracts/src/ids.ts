const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a path's id can name anything: a UUID (any case). Anything else is unknown, never a query. */
export const isUuid = (value: string) => UUID.test(value);

/** What a session code may look like in a path or a body: six ASCII letters or digits, any case. */
export const SESSION_CODE_PATTERN = /^[A-Za-z0-9]{6}$/;

/**
 * A session code as a path gives it, in the stored (upper) case, or undefined when it cannot be one.
 * Any case of ASCII letters, and nothing else: padded, or with a letter that only upper-cases to one
 * (the long s to S), it names no session, on every unit's paths alike.
 */
export const sessionCodeOf = (value: string) =>
  SESSION_CODE_PATTERN.test(value) ? value.toUpperCase() : undefined;
