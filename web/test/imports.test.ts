import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const src = join(import.meta.dirname, '..', 'src');

/**
 * The web room is a client of the public API like any other: its code imports only itself, Preact
 * and the API's typed client (generated from the API's description), and a small QR code encoder
 * (for the room's link), never a unit's or another library's code (what it knows of the API is in
 * api/, through that client).
 */
const OUTSIDE = /^(preact(\/|$)|@pp\/api-client$|uqr$)/;

describe('the web room imports', () => {
  it('only its own files, Preact, the typed API client and the QR code encoder', () => {
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
        if (!own && !OUTSIDE.test(spec!)) outside.push(`${file}: ${spec}`);
      }
    }
    expect(outside).toEqual([]);
  });
});
