/**
 * The web room for browser tests: the build (made when its sources changed, as `npm start` does),
 * a headless Chromium (Debian's package, installed when missing as `npm start` installs nats-server,
 * driven by playwright-core: nothing is downloaded from elsewhere), and a
 * room to open in it.
 */
import { jest } from '@jest/globals';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { ensureDebianExecutable, findExecutable } from '../../deploy/src/launcher/executables.ts';
import type { LauncherLog } from '../../deploy/src/launcher/log.ts';
import { startPlatform, type Platform, type PlatformOptions } from './platform.ts';

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

/** Says on stderr what finding Chromium does (an install takes a while). */
const log: LauncherLog = {
  info: (m) => process.stderr.write(`[chromium] ${m}\n`),
  warn: (m) => process.stderr.write(`[chromium] warning: ${m}\n`),
  error: (m) => process.stderr.write(`[chromium] error: ${m}\n`),
  line: () => undefined,
};

const NAMES = ['chromium', 'chromium-browser', 'google-chrome'];
const found = () => NAMES.map((name) => findExecutable(name)).find(Boolean);

/**
 * CHROMIUM_PATH, else a Chromium on PATH, else Debian's package installed as `npm start` installs
 * nats-server (apt-get, when run as root), else an error naming what to install. Test files run side
 * by side: one that finds another installing it waits for that install.
 */
async function chromiumPath(): Promise<string> {
  const given = process.env.CHROMIUM_PATH;
  if (given) {
    if (!existsSync(given)) throw new Error(`CHROMIUM_PATH names no file: ${given}`);
    return given;
  }
  const hint = 'or set CHROMIUM_PATH to a Chromium or Chrome executable';
  try {
    return found() ?? (await ensureDebianExecutable('chromium', 'chromium', log, hint));
  } catch (err) {
    // Not root: nothing was tried, nobody else installs it. Root: apt-get may have found another file's install under way.
    const deadline = process.getuid?.() === 0 ? Date.now() + 300_000 : 0;
    while (Date.now() < deadline) {
      await sleep(2_000);
      const installed = found();
      if (installed) return installed;
    }
    throw err;
  }
}

/** Headless Chromium; the machine has no internet, so nothing in the background may try to reach it. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = await chromiumPath();
  mkdirSync(artifactsDir, { recursive: true });
  return chromium.launch({
    executablePath,
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

/**
 * How long a browser test waits for one step (a page to show what an action or an event brings): on
 * two cores shared with the suite's other whole-platform tests and Chromium, a step that takes
 * milliseconds alone has taken over ten seconds.
 */
export const STEP = 20_000;

/** Until the probe's value passes the check (the last failure is thrown after the timeout). */
export async function eventually<T>(probe: () => Promise<T>, check: (value: T) => void, timeoutMs = STEP) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return check(await probe());
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
export const textOf = (l: Locator) => l.innerText({ timeout: 1_000 }).catch(() => undefined);
export const attributeOf = (l: Locator, name: string) =>
  l.getAttribute(name, { timeout: 1_000 }).catch(() => undefined);

/** A session of a new account (Ann) with one story, "Login page": the owner's token and the room's code. */
export async function roomWithAStory(platform: Platform, name: string) {
  const token = await platform.signUp('Ann');
  const created = await platform.client.post('/sessions', { token, body: { name } });
  const code = created.body.session.code as string;
  await platform.client.post(`/sessions/${code}/stories`, { token, body: { title: 'Login page' } });
  return { token, code };
}

/**
 * A page of a browser of its own, signed in with the token when one is given, in the room. `script`:
 * page code run before the room's own, on every page load (to change how the network behaves).
 */
export async function openRoom(
  browser: Browser,
  platform: Platform,
  code: string,
  token?: string,
  script?: string,
): Promise<Page> {
  const context = await browser.newContext();
  if (script) await context.addInitScript(script);
  const page = await context.newPage();
  if (token) {
    await page.goto(platform.url + '/');
    await page.evaluate((t) => localStorage.setItem('pp.access_token', t), token);
  }
  await page.goto(`${platform.url}/room/${code}`);
  return page;
}

/** Joins the room open in `page` from its join screen, as a guest of that name. */
export async function joinAs(page: Page, name: string) {
  await page.getByLabel('Your name').fill(name);
  await page.getByRole('button', { name: 'Join' }).click();
}

/**
 * The real platform and a Chromium for a browser test file: the web room built first, both started
 * before its tests (then handed to `ready`) and stopped after them.
 */
export function withBrowserPlatform(
  ready: (platform: Platform, browser: Browser) => unknown,
  options: PlatformOptions = {},
) {
  let platform: Platform | undefined;
  let browser: Browser | undefined;
  // A test of a few steps, each of which may take up to STEP on a busy machine.
  jest.setTimeout(90_000);
  beforeAll(async () => {
    await buildWebRoom();
    [platform, browser] = await Promise.all([startPlatform(options), launchChromium()]);
    await ready(platform, browser);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });
}
