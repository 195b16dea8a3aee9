import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { execa } from 'execa';
import type { LauncherLog } from './log.ts';

// Debian puts servers in sbin, which an ordinary user's PATH often lacks.
const EXTRA_DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/** The full path of an executable found on PATH (or in the usual system folders), if any. */
export function findExecutable(name: string, path = process.env.PATH ?? ''): string | undefined {
  const dirs = [...path.split(delimiter).filter(Boolean), ...EXTRA_DIRS];
  for (const dir of dirs) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

const isRoot = () => process.getuid?.() === 0;

/**
 * A Debian package's executable: from PATH, else installed with apt-get when we are root on a Debian-like
 * system, else an error that says what to install.
 */
export async function ensureDebianExecutable(
  name: string,
  pkg: string,
  log: LauncherLog,
  hint: string,
): Promise<string> {
  const found = findExecutable(name);
  if (found) return found;
  const aptGet = findExecutable('apt-get');
  if (!isRoot() || !aptGet) {
    throw new Error(`${name} is not installed. Install it (Debian/Ubuntu: apt-get install ${pkg}; ${hint}).`);
  }
  log.info(`${name} not found: installing the Debian package ${pkg}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    execa(aptGet, ['install', '-y', '--no-install-recommends', pkg], { env, reject: false, all: true });
  let result = await install();
  if (result.exitCode !== 0) {
    await execa(aptGet, ['update'], { env, reject: false });
    result = await install();
  }
  const installed = findExecutable(name);
  if (result.exitCode !== 0 || !installed) {
    throw new Error(`could not install ${pkg} with apt-get:\n${String(result.all ?? '').slice(-2000)}`);
  }
  return installed;
}
