import type { EndpointTool, ToolSpec } from './tools.ts';

/** A JSON Schema (what MCP tools declare as their input). */
export type JsonSchema = Record<string, unknown>;

/** What a unit says of its paths: the parts of an OpenAPI document a tool's input comes from. */
export interface PathsDescription {
  paths?: Record<string, Record<string, { parameters?: unknown[]; requestBody?: unknown }>>;
  components?: { schemas?: Record<string, unknown> };
}

const COMPONENTS = '#/components/schemas/';
const LOCAL = '#/$defs/';

/** References to the document's components become references to the schema's own `$defs`. */
function localRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(localRefs);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) =>
      k === '$ref' && typeof v === 'string' && v.startsWith(COMPONENTS)
        ? [k, `${LOCAL}${v.slice(COMPONENTS.length)}`]
        : [k, localRefs(v)],
    ),
  );
}

function resolved(schema: JsonSchema, defs: Record<string, unknown>): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref === 'string' && ref.startsWith(LOCAL)) {
    const target = defs[ref.slice(LOCAL.length)];
    if (target && typeof target === 'object') return resolved(target as JsonSchema, defs);
  }
  return schema;
}

/**
 * The definitions a schema refers to, and those they refer to in turn: a unit describes every schema of
 * its paths, and a tool's input carries only its own (every tool is read into an assistant's context).
 */
function usedDefs(schema: unknown, defs: Record<string, unknown>): Record<string, unknown> {
  const used: Record<string, unknown> = {};
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const value = pending.pop();
    if (!value || typeof value !== 'object') continue;
    for (const [k, v] of Object.entries(value)) {
      const name = k === '$ref' && typeof v === 'string' && v.startsWith(LOCAL) ? v.slice(LOCAL.length) : '';
      if (!name) pending.push(v);
      else if (!(name in used) && name in defs) {
        used[name] = defs[name];
        pending.push(defs[name]);
      }
    }
  }
  return used;
}

/** An object schema's properties and required names (nothing for anything else). */
function objectParts(schema: JsonSchema) {
  return {
    properties: (schema.properties ?? {}) as Record<string, unknown>,
    required: (schema.required ?? []) as string[],
    closed: schema.additionalProperties === false,
  };
}

const PATH_INPUTS: Record<string, string> = {
  code: "The session's 6-character code (any case)",
  story_id: 'The story id (UUID)',
};

/**
 * The input of a tool that calls one endpoint: the path's parameters as named inputs, and the
 * endpoint's body (or query parameters) as its unit describes it. Until the unit has described its
 * paths, the rest of the input is open (the unit still validates it, and says what is wrong).
 */
export function endpointToolInput(tool: EndpointTool, description: PathsDescription | undefined): JsonSchema {
  const operation = description?.paths?.[tool.path]?.[tool.method.toLowerCase()];
  const defs = localRefs(description?.components?.schemas ?? {}) as Record<string, unknown>;
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  let closed = tool.rest === 'none';
  if (tool.rest === 'body') {
    const content = (operation?.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined)
      ?.content?.['application/json']?.schema;
    if (content) {
      const body = objectParts(resolved(localRefs(content) as JsonSchema, defs));
      Object.assign(properties, body.properties);
      required.push(...body.required);
      closed = body.closed;
    }
  }
  if (tool.rest === 'query') {
    for (const p of (operation?.parameters ?? []) as Array<Record<string, unknown>>) {
      if (p.in !== 'query') continue;
      properties[p.name as string] = localRefs(p.schema ?? {});
      if (p.required) required.push(p.name as string);
    }
    closed = operation !== undefined;
  }
  for (const input of Object.values(tool.pathInputs)) {
    properties[input] = { type: 'string', description: PATH_INPUTS[input] ?? input };
    required.unshift(input);
  }
  const used = usedDefs(properties, defs);
  return {
    type: 'object',
    properties,
    ...(required.length ? { required: [...new Set(required)] } : {}),
    ...(closed ? { additionalProperties: false } : {}),
    ...(Object.keys(used).length ? { $defs: used } : {}),
  };
}

/** The inputs of the tools that are more than one call. */
export const compositeToolInput: Record<Exclude<ToolSpec['kind'], 'endpoint'>, JsonSchema> = {
  get_session: {
    type: 'object',
    properties: {
      code: { type: 'string', description: PATH_INPUTS.code },
      id: { type: 'string', description: 'The session id (UUID), instead of the code' },
    },
    additionalProperties: false,
  },
  import_csv: {
    type: 'object',
    properties: {
      code: { type: 'string', description: PATH_INPUTS.code },
      csv: { type: 'string', maxLength: 1_000_000, description: 'The CSV text, header row first' },
    },
    required: ['code', 'csv'],
    additionalProperties: false,
  },
};

/** A tool's arguments split into the path's parameters (by the path's names) and the rest (the body or the query). */
export function splitArguments(tool: EndpointTool, args: Record<string, unknown>) {
  const pathParams = Object.fromEntries(
    Object.entries(tool.pathInputs).map(([param, input]) => [param, String(args[input] ?? '')]),
  );
  const inputs = new Set(Object.values(tool.pathInputs));
  const rest = Object.fromEntries(Object.entries(args).filter(([k]) => !inputs.has(k)));
  return { pathParams, rest };
}
