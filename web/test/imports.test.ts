import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const src = join(import.meta.dirname, '..', 'src');

/**
 * The web room is a client of the public API like any other: its code imports only itself and
 * Preact, never a unit's or a library's code (what it knows of the API is in api/).
 */
describe('the web room imports', () => {
  it('only its own files and Preact', () => {
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
      (f) => /\.tsx?$/.test(f) && !f.endsWith('.test.ts'),
    );
    expect(files.length).toBeGreaterThan(10);
    const outside: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(src, file), 'utf8');
      for (const [, spec] of text.matchAll(/(?:import|from)\s+['"]([^'"]+)['"]/g)) {
        const own =
          spec!.startsWith('.') && !relative(src, resolve(dirname(join(src, file)), spec!)).startsWith('..');
        if (!own && !/^preact(\/|$)/.test(spec!)) outside.push(`${file}: ${spec}`);
      }
    }
    expect(outside).toEqual([]);
  });
});
