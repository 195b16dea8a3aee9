import { execFile } from 'node:child_process';
import { join } from 'node:path';
import type { LauncherLog } from './log.ts';
import { nodeBinary, repoRoot } from './units.ts';

/**
 * Builds the web room (web/dist) when its sources changed since the last build, so that `npm start`
 * on a fresh clone serves it with no build command of its own (an unchanged build costs a hash of
 * the sources). A failed build does not stop the start: the gateway then serves the API only, and
 * says so.
 */
export function buildWebRoom(
  log: LauncherLog,
  script = join(repoRoot, 'web', 'scripts', 'build.ts'),
): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(nodeBinary(), [script], { cwd: repoRoot, timeout: 180_000 }, (err, stdout, stderr) => {
      if (err) {
        const why = (stderr || err.message).trim().split('\n').slice(-5).join('\n');
        log.warn(`the web room could not be built, the gateway serves the API only:\n${why}`);
        return resolve(false);
      }
      log.info(stdout.trim());
      resolve(true);
    });
  });
}
