import { readFileSync } from 'node:fs';
import {
  generatedClientSchema,
  generatedPathPrefixes,
  prefixesFile,
  schemaFile,
} from './support/api-client-schema.ts';

/**
 * The typed API client (libs/api-client) is generated from the units' path descriptions: a unit that
 * changes what it describes without running `npm run generate:client` would leave the web room, the
 * MCP unit and the end-to-end tests calling the API by an old description. This fails until the
 * client is regenerated.
 */

/** Where two texts first differ, by line: a readable failure rather than 7,000 lines of diff. */
function firstDifference(committed: string, generated: string): string {
  if (committed === generated) return 'none';
  const a = committed.split('\n');
  const b = generated.split('\n');
  const line = b.findIndex((text, i) => a[i] !== text);
  const at = line < 0 ? a.length : line;
  return `line ${at + 1}: committed ${JSON.stringify(a[at])}, generated ${JSON.stringify(b[at])}`;
}

describe('the committed API client', () => {
  it('is what the units’ path descriptions generate now (else run npm run generate:client)', async () => {
    const committed = readFileSync(schemaFile, 'utf8');
    const generated = await generatedClientSchema();
    expect(generated).toContain("'/sessions/{code}/vote'");
    expect(firstDifference(committed, generated)).toBe('none');
  });

  it('has the paths’ first segments the descriptions name now (the dev server proxies by them)', async () => {
    const generated = await generatedPathPrefixes();
    expect(generated).toContain("'/sessions'");
    expect(firstDifference(readFileSync(prefixesFile, 'utf8'), generated)).toBe('none');
  });
});
