/**
 * Builds the web room into web/dist, only when its sources changed since the last build (`--force`
 * builds anyway). `npm start` and the browser tests run it, so a fresh clone needs no build command.
 * The build is written to a folder of its own and swapped in whole: a gateway serving web/dist, or
 * another build running at the same time, never sees half of one.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const webRoot = fileURLToPath(new URL('..', import.meta.url));
export const distDir = join(webRoot, 'dist');
const STAMP = '.source-hash';
const INPUTS = ['index.html', 'vite.config.ts', 'package.json', 'tsconfig.json', 'src'];
/** The API's typed client, built into the room (a regenerated client is a new build). */
const CLIENT = join(webRoot, '..', 'libs', 'api-client', 'src');

function filesOf(path: string): string[] {
  if (!existsSync(path)) return [];
  return readdirSync(path, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && !/\.test\.tsx?$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

/** What the build depends on: every source file's path and content (tests aside). */
export function sourceHash(): string {
  const hash = createHash('sha256');
  const files = INPUTS.flatMap((input) => {
    const path = join(webRoot, input);
    return input.includes('.') ? [path] : filesOf(path);
  })
    .concat(filesOf(CLIENT))
    .sort();
  for (const file of files)
    hash.update(relative(webRoot, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

export function isUpToDate(hash = sourceHash()): boolean {
  try {
    return existsSync(join(distDir, 'index.html')) && readFileSync(join(distDir, STAMP), 'utf8') === hash;
  } catch {
    return false;
  }
}

/** Builds when needed; says what it did. */
export async function ensureBuilt(force = false): Promise<'up to date' | 'built'> {
  const hash = sourceHash();
  if (!force && isUpToDate(hash)) return 'up to date';
  const cache = join(webRoot, '..', 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const out = join(cache, `pp-web-${process.pid}-${Date.now()}`);
  const old = `${out}-old`;
  const { build } = await import('vite');
  try {
    await build({ root: webRoot, logLevel: 'warn', build: { outDir: out, emptyOutDir: true } });
    writeFileSync(join(out, STAMP), hash);
    try {
      renameSync(distDir, old);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    try {
      renameSync(out, distDir);
    } catch (err) {
      // Another build of the same sources landed in between: keep that one.
      if (!['ENOTEMPTY', 'EEXIST'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
  return 'built';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const began = Date.now();
  const done = await ensureBuilt(process.argv.includes('--force'));
  process.stdout.write(
    `web room: ${done}${done === 'built' ? ` in ${Date.now() - began} ms` : ''} (${distDir})\n`,
  );
}
