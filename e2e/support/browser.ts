/**
 * The web room for browser tests: the build (made when its sources changed, as `npm start` does) and
 * a headless Chromium (Debian's package, driven by playwright-core: nothing is downloaded).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser } from 'playwright-core';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const webDist = join(repoRoot, 'web', 'dist');
/** Screenshots and other files a browser test leaves for people to look at (gitignored). */
export const artifactsDir = join(repoRoot, 'test-artifacts', 'web-room');

/** Builds web/dist unless it is up to date with its sources. */
export async function buildWebRoom(): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(repoRoot, 'web', 'scripts', 'build.ts')],
    {
      cwd: repoRoot,
      timeout: 120_000,
    },
  );
  return stdout.trim();
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless Chromium; the machine has no internet, so nothing in the background may try to reach it. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (CI's .ci/run installs it)`);
  mkdirSync(artifactsDir, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}
