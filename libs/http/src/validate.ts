import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import { BadRequestError, ValidationError } from './errors.ts';

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

/** Where a value holds a string with a NUL character (which no text column can store), as field paths. */
function nulPaths(value: unknown, path: string[] = [], found: string[] = []): string[] {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) found.push(path.join('.'));
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => nulPaths(v, [...path, String(i)], found));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) nulPaths(v, [...path, k], found);
  }
  return found;
}

function parsePart(part: 'params' | 'query' | 'body', schema: z.ZodType | undefined, value: unknown) {
  if (!schema) return undefined;
  const withNul = nulPaths(value);
  if (withNul.length > 0) {
    const errors: Record<string, string[]> = {};
    for (const path of withNul)
      errors[[part === 'body' ? undefined : part, path].filter(Boolean).join('.') || part] = [
        'must not contain the NUL character (\\u0000)',
      ];
    throw new ValidationError(errors);
  }
  const result = schema.safeParse(part === 'body' ? (value ?? {}) : value);
  if (result.success) return result.data;
  // A query value of the wrong type (per_page=abc) is a malformed request; a value out of range is a validation error.
  if (part === 'query') {
    const typeIssue = result.error.issues.find((i) => i.code === 'invalid_type');
    if (typeIssue) {
      throw new BadRequestError(
        `Query parameter ${typeIssue.path.join('.')} has the wrong type`,
        'invalid_query',
      );
    }
  }
  throw new ValidationError(issuesToErrors(result.error.issues, part === 'body' ? undefined : part));
}

/** Parses params, query and body once; the typed result is handed to the handler. */
export function validate<S extends Schemas>(
  schemas: S,
  handler: (input: Input<S>, req: Request, res: Response, next: NextFunction) => unknown,
): RequestHandler {
  return async (req, res, next) => {
    const input = {
      params: parsePart('params', schemas.params, req.params),
      query: parsePart('query', schemas.query, req.query),
      body: parsePart('body', schemas.body, req.body),
    } as Input<S>;
    await handler(input, req, res, next);
  };
}
