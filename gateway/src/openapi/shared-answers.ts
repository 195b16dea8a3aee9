import { STATUS_CODES } from 'node:http';
import type { OpenApiJson } from './document.ts';

type Response = { description?: string; [key: string]: unknown };

const pascal = (text: string) =>
  text.replace(/(?:^|[^A-Za-z0-9]+)(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''));

/**
 * A name for a shared answer: the status's reason for the gateway's own (`NotFound`), else the codes
 * its description names (`SessionNotFound`), else the reason and a number.
 */
function nameOf(status: string, response: Response, gateways: boolean, taken: Set<string>): string {
  const reason = pascal(STATUS_CODES[Number(status)] ?? `Status ${status}`);
  const codes = [...(response.description ?? '').matchAll(/`([a-z][a-z0-9_]*)`/g)].map((m) => m[1]!);
  const wanted = gateways || codes.length === 0 ? reason : pascal([...new Set(codes)].join(' or '));
  let name = wanted;
  for (let n = 2; taken.has(name); n++) name = `${wanted}${n}`;
  taken.add(name);
  return name;
}

/**
 * The document with every error answer given alike by several operations written once, under
 * `components.responses`, and referenced where it is given. Written out in full on each operation
 * (the envelope and six rate-limit headers each time: eleven answers the gateway gives on every one
 * of 77 operations, and the units' own, such as an unknown session's 404) they made the document
 * over half a megabyte. `base` is the route table's document: its answers get the plain names.
 */
export function shareGatewayAnswers(doc: OpenApiJson, base: OpenApiJson): OpenApiJson {
  const errorsOf = (d: OpenApiJson) =>
    Object.values(d.paths ?? {}).flatMap((item) =>
      Object.values(item).flatMap((op) =>
        Object.entries(op.responses ?? {}).filter(([status]) => Number(status) >= 400),
      ),
    );
  const gateways = new Set(errorsOf(base).map(([, response]) => JSON.stringify(response)));
  const counts = new Map<string, { status: string; response: Response; count: number }>();
  for (const [status, response] of errorsOf(doc)) {
    const text = JSON.stringify(response);
    const seen = counts.get(text) ?? { status, response, count: 0 };
    counts.set(text, { ...seen, count: seen.count + 1 });
  }
  // The gateway's answers first, then by how often they are given: the commonest get the plain names.
  const order = [...counts].sort(
    ([a, x], [b, y]) => Number(gateways.has(b)) - Number(gateways.has(a)) || y.count - x.count,
  );
  const names = new Map<string, string>();
  const shared: Record<string, unknown> = {};
  const taken = new Set<string>();
  for (const [text, { status, response, count }] of order) {
    if (count < 2) continue;
    const name = nameOf(status, response, gateways.has(text), taken);
    names.set(text, name);
    shared[name] = response;
  }
  const out = structuredClone(doc);
  for (const item of Object.values(out.paths ?? {}))
    for (const op of Object.values(item))
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const name = names.get(JSON.stringify(response));
        if (name) op.responses![status] = { $ref: `#/components/responses/${name}` };
      }
  const components = (out.components ??= {});
  components.responses = Object.fromEntries(
    Object.keys(shared)
      .sort()
      .map((name) => [name, shared[name]]),
  );
  return out;
}
