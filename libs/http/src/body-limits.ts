import type { RequestHandler } from 'express';
import { ValidationError } from './errors.ts';

/** The `errors` key of a problem with the body as a whole (its shape, its size), which has no field to name. */
export const BODY_FIELD = '_body';

/**
 * No request of the API nests more than a few levels or carries thousands of values, while 5,000 levels
 * fit in 10 KB. Past these bounds a body is refused before anything walks it (the NUL check, zod,
 * a logger), so that none of them can overflow the stack or spend long on it.
 */
export const MAX_BODY_DEPTH = 64;
/** The default; a unit that takes long lists (an import of 1,000 stories) raises it. */
export const MAX_BODY_ENTRIES = 10_000;

/** What is wrong with the parsed body's shape, or undefined. An explicit stack: it must not recurse itself. */
export function bodyLimitViolation(body: unknown, maxEntries = MAX_BODY_ENTRIES): string | undefined {
  const stack: Array<{ value: object; depth: number }> = [];
  if (body !== null && typeof body === 'object') stack.push({ value: body, depth: 1 });
  let entries = 0;
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (depth > MAX_BODY_DEPTH) return `nested deeper than ${MAX_BODY_DEPTH} levels`;
    const children: unknown[] = Array.isArray(value) ? value : Object.values(value);
    entries += children.length;
    if (entries > maxEntries) return `more than ${maxEntries} keys and array elements in all`;
    for (const child of children)
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1 });
  }
  return undefined;
}

/** Right after the JSON parser, before any route sees the body: 422 naming the limit. */
export const checkBodyLimits =
  (maxEntries = MAX_BODY_ENTRIES): RequestHandler =>
  (req, _res, next) => {
    const problem = bodyLimitViolation(req.body, maxEntries);
    if (problem) throw new ValidationError({ [BODY_FIELD]: [problem] });
    next();
  };
