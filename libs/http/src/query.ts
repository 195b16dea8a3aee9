import { z } from 'zod';

/** A whole number as a query writes it: decimal digits only (at most 15, so it stays exact). */
const DIGITS = /^[0-9]{1,15}$/;

/**
 * A query parameter that is a whole number, checked by `schema` (its range, its default). Only decimal
 * digits read as a number: `0x10`, `1e1`, ` 5`, an empty value or a key given twice are of the wrong
 * type (400 `invalid_query`), not coerced into a number that was never written; a number out of range
 * is a validation error (422). The document shows `schema` itself (an integer, its bounds, its default).
 */
export function queryInteger<T extends z.ZodType>(schema: T) {
  return z.preprocess(
    (value) => (typeof value === 'string' && DIGITS.test(value) ? Number(value) : value),
    schema,
  );
}
