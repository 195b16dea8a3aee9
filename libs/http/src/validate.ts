import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import { BODY_FIELD } from './body-limits.ts';
import { BadRequestError, NotFoundError, ValidationError } from './errors.ts';

export interface Schemas {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
}

type Out<S> = S extends z.ZodType ? z.infer<S> : undefined;
export interface Input<S extends Schemas> {
  params: Out<S['params']>;
  query: Out<S['query']>;
  body: Out<S['body']>;
}

/** zod issues as `{ "field.path": ["message"] }`. */
export function issuesToErrors(issues: z.core.$ZodIssue[], prefix?: string): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || prefix || '_';
    (errors[key] ??= []).push(issue.message);
  }
  return errors;
}

interface Visit {
  value: unknown;
  key?: string;
  parent?: Visit;
}

function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let v: Visit | undefined = visit; v?.key !== undefined; v = v.parent) keys.push(v.key);
  return keys.reverse().join('.');
}

/** Why a string cannot be stored as text or JSON, or undefined when it can. */
function unstorable(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain the NUL character (\\u0000)';
  // A lone surrogate (`"\ud800"` in JSON) is no Unicode character: no text or JSON column takes it.
  if (!text.isWellFormed()) return 'must be valid Unicode (a lone surrogate such as \\ud800 is not)';
  return undefined;
}

/**
 * Where a value holds a string (or a key) that no column can store: a NUL character or a lone
 * surrogate, as field paths in document order, with the reason. An explicit stack rather than
 * recursion: request data decides how deep it goes.
 */
function unstorablePaths(root: unknown): Array<{ path: string; reason: string }> {
  const found: Array<{ path: string; reason: string }> = [];
  const stack: Visit[] = [{ value: root }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { value } = visit;
    const keyReason = visit.key === undefined ? undefined : unstorable(visit.key);
    if (keyReason) found.push({ path: pathOf(visit), reason: keyReason });
    else if (typeof value === 'string') {
      const reason = unstorable(value);
      if (reason) found.push({ path: pathOf(visit), reason });
    } else if (value && typeof value === 'object') {
      const entries = Array.isArray(value)
        ? value.map((v, i) => [String(i), v] as const)
        : Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--)
        stack.push({ value: entries[i]![1], key: entries[i]![0], parent: visit });
    }
  }
  return found;
}

/** zod's issues on the body; one about the body as a whole (`null`, an array, `3`) has no field and is keyed `_body`. */
function bodyErrors(issues: z.core.$ZodIssue[]): Record<string, string[]> {
  const errors = issuesToErrors(issues.filter((issue) => issue.path.length > 0));
  for (const issue of issues.filter((i) => i.path.length === 0)) {
    const notObject = issue.code === 'invalid_type' && issue.expected === 'object';
    (errors[BODY_FIELD] ??= []).push(notObject ? 'must be a JSON object' : issue.message);
  }
  return errors;
}

/** What a path that takes no body says of one that came with fields (or is not `{}` at all). */
export const NO_BODY_TAKEN = 'This path takes no body: send none, or {}';

/**
 * A path without a body schema takes none: no body or `{}` passes, anything else is refused like an
 * unknown field (a reveal sent with a final estimate must not answer as if it had taken it).
 */
function checkNoBody(value: unknown) {
  if (value === undefined) return;
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
  if (isObject && Object.keys(value).length === 0) return;
  const named = isObject
    ? `: ${Object.keys(value)
        .map((k) => JSON.stringify(k))
        .join(', ')}`
    : '';
  throw new ValidationError({ [BODY_FIELD]: [`${NO_BODY_TAKEN}${named}`] });
}

/**
 * A path names a resource: a value in it that cannot name one (an id that is not a number or a UUID,
 * a code too long, a NUL character) names nothing there is, as an unknown id does: 404.
 */
function parseParams(schema: z.ZodType | undefined, value: unknown) {
  if (!schema) return undefined;
  const result = unstorablePaths(value).length === 0 ? schema.safeParse(value) : undefined;
  if (result?.success) return result.data;
  throw new NotFoundError('No such resource: the path names nothing there is', 'not_found');
}

/**
 * Whether a query value is of the wrong type: zod says so, or the value is of none of a union's types
 * (`folder_id=abc`, `folder_id=0x10` are neither `none` nor a number), rather than out of one's range.
 */
function isTypeIssue(issue: z.core.$ZodIssue): boolean {
  if (issue.code === 'invalid_type') return true;
  if (issue.code !== 'invalid_union') return false;
  const failed = issue.errors.map((branch) => branch.map((i) => i.code));
  return (
    failed.some((codes) => codes.includes('invalid_type')) &&
    failed.every((codes) => codes.every((code) => code === 'invalid_type' || code === 'invalid_value'))
  );
}

function parsePart(part: 'query' | 'body', schema: z.ZodType | undefined, value: unknown) {
  if (!schema) return part === 'body' ? checkNoBody(value) : undefined;
  const unfit = unstorablePaths(value);
  if (unfit.length > 0) {
    const errors: Record<string, string[]> = {};
    const root = part === 'body' ? BODY_FIELD : part;
    for (const { path, reason } of unfit)
      errors[path ? (part === 'body' ? path : `${part}.${path}`) : root] = [reason];
    throw new ValidationError(errors);
  }
  // No body at all reads as `{}`; a body of `null` is there, and is not an object.
  const result = schema.safeParse(part === 'body' && value === undefined ? {} : value);
  if (result.success) return result.data;
  // A query value of the wrong type (per_page=abc, a key given twice) is a malformed request; a value
  // out of range or not among those allowed is a validation error.
  if (part === 'query') {
    const given = value as Record<string, unknown>;
    const typeIssue = result.error.issues.find(
      (i) => isTypeIssue(i) || Array.isArray(given[String(i.path[0])]),
    );
    if (typeIssue) {
      const key = typeIssue.path.join('.');
      const raw = given[String(typeIssue.path[0])];
      throw new BadRequestError(
        Array.isArray(raw)
          ? `Query parameter ${key} is given more than once`
          : raw === undefined
            ? `Query parameter ${key} is missing`
            : `Query parameter ${key} has the wrong type`,
        'invalid_query',
      );
    }
  }
  throw new ValidationError(
    part === 'body' ? bodyErrors(result.error.issues) : issuesToErrors(result.error.issues, part),
  );
}

/** Parses params, query and body once; the typed result is handed to the handler. */
export function validate<S extends Schemas>(
  schemas: S,
  handler: (input: Input<S>, req: Request, res: Response, next: NextFunction) => unknown,
): RequestHandler {
  return async (req, res, next) => {
    const input = {
      params: parseParams(schemas.params, req.params),
      query: parsePart('query', schemas.query, req.query),
      body: parsePart('body', schemas.body, req.body),
    } as Input<S>;
    await handler(input, req, res, next);
  };
}
