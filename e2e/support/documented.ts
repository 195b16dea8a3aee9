/**
 * Whether a real answer is what the API's document says of it: the schema its operation documents for
 * the answer's status and media type (with the document's components), applied to its body.
 */
import { z } from 'zod';
import type { TestResponse } from '@pp/testing';
import type { OpenApiJson } from '../../gateway/src/openapi/document.ts';

type Content = Record<string, { schema?: object }>;

/** The document's `#/components/schemas/...` references as local `$defs` ones (what zod reads). */
const local = (schema: object) =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"#/$defs/')) as object;

/** A response of the document, itself or the shared one it refers to (`#/components/responses/...`). */
export function responseOf(doc: OpenApiJson, response: unknown): Record<string, unknown> | undefined {
  const ref = (response as { $ref?: string } | undefined)?.$ref;
  if (!ref) return response as Record<string, unknown> | undefined;
  return doc.components?.responses?.[ref.split('/').pop()!] as Record<string, unknown> | undefined;
}

/**
 * How an answer of `METHOD path` (a path of the document, e.g. `/sessions/{code}`) differs from what
 * the document says of it: nothing when its body matches the schema documented for its status and
 * media type, otherwise the problems (an undocumented status or media type, or the schema's issues).
 */
export function differencesFromDocument(
  doc: OpenApiJson,
  method: string,
  path: string,
  res: TestResponse,
): string[] {
  const key = `${method} ${path} ${res.status}`;
  const response = responseOf(
    doc,
    doc.paths?.[path]?.[method.toLowerCase()]?.responses?.[String(res.status)],
  );
  if (!response) return [`${key}: status not documented`];
  const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const schema = (response.content as Content | undefined)?.[mediaType]?.schema;
  if (!schema) return [`${key}: ${mediaType} not documented`];
  const $defs = Object.fromEntries(
    Object.entries(doc.components?.schemas ?? {}).map(([name, s]) => [name, local(s as object)]),
  );
  const parsed = z
    .fromJSONSchema({ ...local(schema), $defs } as Parameters<typeof z.fromJSONSchema>[0])
    .safeParse(mediaType === 'application/json' ? res.body : res.text);
  return parsed.success
    ? []
    : parsed.error.issues.map((i) => `${key}: ${i.path.join('.') || '(body)'}: ${i.message}`);
}
