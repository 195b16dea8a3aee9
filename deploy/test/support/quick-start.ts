import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../src/launcher/units.ts';

/** The URL the README's commands are written for: what `npm start` prints. */
export const README_URL = 'http://localhost:8080';

/** The README's "Quick start" section: its text up to the next section. */
export function quickStartSection(): string {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const section = /^## Quick start\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1];
  if (!section) throw new Error('README.md has no "## Quick start" section');
  return section;
}

/** The section's shell blocks as one script, aimed at `url` instead of the README's URL. */
export function quickStartScript(url: string): string {
  const blocks = [...quickStartSection().matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```$/gm)].map(
    (m) => m[1]!,
  );
  if (blocks.length === 0) throw new Error('the README\'s "Quick start" section has no ```sh block');
  return blocks.join('\n').replaceAll(README_URL, url);
}

/**
 * Runs the quick start with bash, stopping at the first command that fails (`-e`, `-o pipefail`: a curl
 * that cannot connect, an error answer) or reads an unset variable (`-u`); no rc file (bash reads one when
 * its stdin is a socket, as it is here). Resolves with what it printed; rejects with the exit code, stdout
 * and stderr.
 */
export function runQuickStart(url: string): Promise<{ stdout: string; stderr: string }> {
  const script = quickStartScript(url);
  return new Promise((resolve, reject) => {
    execFile(
      'bash',
      ['--norc', '-e', '-u', '-o', 'pipefail', '-c', script],
      { env: { PATH: process.env.PATH, HOME: process.env.HOME }, timeout: 30_000 },
      (err, stdout, stderr) => {
        if (err)
          reject(
            new Error(`the quick start failed (${err.signal ?? `exit ${err.code}`}):\n${stdout}\n${stderr}`),
          );
        else resolve({ stdout, stderr });
      },
    );
  });
}
