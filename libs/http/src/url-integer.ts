import { z } from 'zod';

/** A whole number as a URL writes it: decimal digits only (at most 15, so it stays exact). */
const DIGITS = /^[0-9]{1,15}$/;

/**
 * A whole number in a URL (a path segment or a query value), checked by `schema` (its range, its
 * default). Only decimal digits read as a number: `0x10`, `1e1`, ` 5`, an empty value or a query key
 * given twice are of the wrong type, not coerced into a number that was never written (in a query:
 * 400 `invalid_query`, and 422 out of range; in a path: 404, as for any value that names nothing).
 * The document shows `schema` itself (an integer, its bounds, its default).
 */
export function urlInteger<T extends z.ZodType>(schema: T) {
  return z.preprocess(
    (value) => (typeof value === 'string' && DIGITS.test(value) ? Number(value) : value),
    schema,
  );
}
