import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  artifactsDir,
  attributeOf,
  eventually,
  joinAs,
  STEP,
  textOf,
  webDist,
  withBrowserPlatform,
} from './support/browser.ts';
import type { Platform } from './support/platform.ts';

/**
 * The web room in real headless Chromium against the real platform behind the real gateway: a
 * moderator and three participants, each in a browser context of their own, play two rounds.
 */
describe('the web room in a browser', () => {
  let platform: Platform;
  let browser: Browser;
  let moderator: Page;
  const people: Array<{ name: string; context: BrowserContext; page: Page }> = [];
  let code: string;

  // The integrations unit reads the CSV the moderator pastes.
  withBrowserPlatform(
    async (started, chromium) => {
      [platform, browser] = [started, chromium];
      moderator = await watched(await (await browser.newContext()).newPage());
    },
    { integrationsEnv: {} },
  );

  /** What the pages must never show: script errors, and anything the CSP refused. */
  const broken: string[] = [];
  const watched = async (page: Page) => {
    page.on('pageerror', (err) => broken.push(`${err.name}: ${err.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Refused to/.test(m.text())) broken.push(m.text());
    });
    return page;
  };

  const everyone = () => [moderator, ...people.map((p) => p.page)];
  const results = (page: Page) => page.getByRole('region', { name: /^Results/ });
  const voteTable = async (page: Page) =>
    (await results(page).locator('tbody tr').allInnerTexts())
      .map((row) => row.replace(/\s+/g, ' ').trim())
      .sort();

  it('lets the moderator sign up, create a session and paste stories as CSV, previewed first', async () => {
    await moderator.goto(platform.url + '/');
    await moderator.getByRole('button', { name: 'No account yet? Sign up' }).click();
    await moderator.getByLabel('Your name').fill('Ann');
    await moderator.getByLabel('Email').fill(`ann-${Date.now()}@example.com`);
    await moderator.getByLabel('Password').fill('a-long-password');
    await moderator.getByRole('button', { name: 'Sign up' }).click();

    await moderator.getByLabel('Name', { exact: true }).fill('Sprint 12');
    await moderator.getByRole('button', { name: 'Create the session' }).click();
    await moderator.waitForURL(/\/room\/[A-Z0-9]{6}$/, { timeout: STEP });
    code = new URL(moderator.url()).pathname.split('/').pop()!;
    await moderator.getByRole('heading', { name: 'No story open' }).waitFor({ timeout: STEP });

    await moderator.getByText('Import stories from CSV').click();
    await moderator.getByLabel('CSV').fill('title,description\nLogin page,"Email, password"\nSignup page,\n');
    await moderator.getByRole('button', { name: 'Preview' }).click();
    // The preview is the integrations unit's answer: read the list once it has come.
    await moderator.getByRole('button', { name: 'Import 2 stories' }).waitFor({ timeout: STEP });
    expect(
      await moderator.getByRole('list', { name: 'Stories to import' }).locator('li').allInnerTexts(),
    ).toEqual(['Login page', 'Signup page']);
    await moderator.getByRole('button', { name: 'Import 2 stories' }).click();
    await moderator.getByRole('status').filter({ hasText: 'Added 2 stories.' }).waitFor({ timeout: STEP });
    await moderator.getByRole('heading', { name: 'Login page', level: 2 }).waitFor({ timeout: STEP });
    const inOrder = moderator.getByRole('list', { name: 'Stories in order' }).locator('li');
    await inOrder.filter({ hasText: 'Signup page' }).waitFor({ timeout: STEP });
    expect(await inOrder.allInnerTexts()).toEqual([
      expect.stringContaining('Login page'),
      expect.stringContaining('Signup page'),
    ]);
  });

  it('lets three participants join from the room link, each in a browser of their own', async () => {
    for (const name of ['Bob', 'Cleo', 'Dan']) {
      const context = await browser.newContext();
      const page = await watched(await context.newPage());
      await page.goto(`${platform.url}/room/${code}`);
      await page.getByRole('heading', { name: 'Join the room' }).waitFor({ timeout: STEP });
      await joinAs(page, name);
      await page.getByRole('radiogroup', { name: 'Your estimate' }).waitFor({ timeout: STEP });
      people.push({ name, context, page });
    }
    const names = moderator.getByRole('list', { name: 'Participants' }).locator('li');
    await eventually(
      () => names.allInnerTexts(),
      (v) =>
        expect(v).toEqual([
          expect.stringContaining('Bob'),
          expect.stringContaining('Cleo'),
          expect.stringContaining('Dan'),
        ]),
    );
  });

  it('keeps the votes secret until the reveal, then shows everyone the votes and the consensus', async () => {
    const [bob, cleo, dan] = people.map((p) => p.page) as [Page, Page, Page];
    await bob.getByRole('radio', { name: '5', exact: true }).click();
    await cleo.keyboard.press('5'); // keyboard play: the card's number
    await dan.getByRole('radio', { name: '3', exact: true }).click();
    await dan.getByRole('radio', { name: '8', exact: true }).click(); // changed before the reveal
    await eventually(
      () => textOf(dan.getByTestId('my-vote')),
      (v) => expect(v).toBe('8'),
    );
    expect(await cleo.getByRole('radio', { name: '5', exact: true }).getAttribute('aria-checked')).toBe(
      'true',
    );

    for (const page of everyone()) {
      await eventually(
        () => textOf(page.getByTestId('vote-count')),
        (v) => expect(v).toBe('3 of 3 voted'),
      );
      // Who voted shows; what they voted does not, anywhere on the page.
      const rows = await page.getByRole('list', { name: 'Participants' }).locator('li').allInnerTexts();
      expect(rows.every((r) => r.includes('✓ voted') && !/\d/.test(r))).toBe(true);
      expect(await results(page).count()).toBe(0);
    }

    await moderator.getByRole('button', { name: 'Reveal the votes' }).click();
    for (const page of everyone()) {
      await eventually(
        () => textOf(page.getByTestId('consensus')),
        (v) => expect(v).toBe('5'),
      );
      expect(await voteTable(page)).toEqual(['Bob 5', 'Cleo 5', 'Dan 8']);
      await page.getByRole('heading', { name: 'Signup page', level: 2 }).waitFor({ timeout: STEP });
    }
    await moderator.screenshot({ path: join(artifactsDir, 'round-1-revealed.png'), fullPage: true });
    await people[0]!.page.screenshot({ path: join(artifactsDir, 'round-1-participant.png'), fullPage: true });
  });

  it('brings a participant whose network was cut up to date when it comes back', async () => {
    const [bob, cleo, dan] = people.map((p) => p.page) as [Page, Page, Page];
    const danContext = people[2]!.context;
    const resumedWith: Array<string | undefined> = [];
    dan.on('request', (r) => {
      if (r.url().endsWith(`/sessions/${code}/events`)) resumedWith.push(r.headers()['last-event-id']);
    });

    await dan.keyboard.press('3');
    await eventually(
      () => textOf(dan.getByTestId('my-vote')),
      (v) => expect(v).toBe('3'),
    );
    await danContext.setOffline(true);
    await eventually(
      () => attributeOf(dan.locator('[data-status]'), 'data-status'),
      (v) => expect(v).toBe('offline'),
    );

    await bob.getByRole('radio', { name: '3', exact: true }).click();
    await cleo.getByRole('radio', { name: '2', exact: true }).click();
    await eventually(
      () => textOf(moderator.getByTestId('vote-count')),
      (v) => expect(v).toBe('3 of 3 voted'),
    );
    await moderator.getByRole('button', { name: 'Reveal the votes' }).click();
    await eventually(
      () => textOf(moderator.getByTestId('consensus')),
      (v) => expect(v).toBe('3'),
    );
    // Offline, Dan still sees the first round.
    expect(await dan.getByTestId('consensus').innerText()).toBe('5');

    await danContext.setOffline(false);
    await eventually(
      () => textOf(dan.getByTestId('consensus')),
      (v) => expect(v).toBe('3'),
      15_000,
    );
    expect(await voteTable(dan)).toEqual(['Bob 3', 'Cleo 2', 'Dan 3']);
    await eventually(
      () => attributeOf(dan.locator('[data-status]'), 'data-status'),
      (v) => expect(v).toBe('live'),
    );
    // It resumed the stream from the last event it had seen.
    expect(resumedWith.some((id) => id !== undefined && /^[0-9a-f-]{36}$/.test(id))).toBe(true);

    await moderator.screenshot({ path: join(artifactsDir, 'round-2-revealed.png'), fullPage: true });
  });

  it('shows the moderator the analytics as a chart, and exports the stories', async () => {
    await moderator.getByRole('button', { name: 'Show analytics' }).click();
    const chart = moderator.getByRole('img', { name: /^Final estimates/ });
    await chart.waitFor({ timeout: STEP });
    expect(await chart.getAttribute('aria-label')).toBe('Final estimates: 3: 1, 5: 1');

    const [download] = await Promise.all([
      moderator.waitForEvent('download'),
      moderator.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`session-${code}-stories.csv`);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv).toContain('Login page');
    expect(csv).toContain('Signup page');
  });

  it('lets the moderator add a story by hand: with none open, it opens for votes', async () => {
    await moderator.getByLabel('New story').fill('Logout');
    await moderator.getByRole('button', { name: 'Add', exact: true }).click();
    for (const page of everyone())
      await page.getByRole('heading', { name: 'Logout', level: 2 }).waitFor({ timeout: STEP });
  });

  let custom: string;
  it('runs a session with a custom deck and auto reveal, in which the moderator votes too', async () => {
    await moderator.goto(platform.url + '/');
    await moderator.getByLabel('Name', { exact: true }).fill('T-shirts of our own');
    await moderator.getByLabel('Deck').selectOption('custom');
    await moderator.getByLabel('Cards').fill('S, M, L, ?');
    await moderator.getByLabel('Reveal as soon as everyone has voted').check();
    await moderator.getByRole('button', { name: 'Create the session' }).click();
    await moderator.waitForURL(
      (url) => /^\/room\/[A-Z0-9]{6}$/.test(url.pathname) && !url.pathname.endsWith(code),
    );
    custom = new URL(moderator.url()).pathname.split('/').pop()!;
    await moderator.getByLabel('New story').fill('Search');
    await moderator.getByRole('button', { name: 'Add', exact: true }).click();
    await moderator.getByRole('button', { name: 'Vote too' }).click();
    const cards = moderator.getByRole('radiogroup', { name: 'Your estimate' }).getByRole('radio');
    await eventually(
      () => cards.allInnerTexts(),
      (v) => expect(v).toEqual(['S', 'M', 'L', '?']),
    );
    // A deck without numbers: '2' picks the second card. The cards show before the round is known to
    // be open (then they are disabled and keys pick nothing), so the key is pressed once they are enabled,
    // and again if the pick did not take.
    await eventually(
      async () => {
        const consensus = await textOf(moderator.getByTestId('consensus'));
        const second = cards.nth(1);
        if (
          consensus === undefined &&
          (await second.isEnabled({ timeout: 1_000 }).catch(() => false)) &&
          (await attributeOf(second, 'aria-checked')) !== 'true'
        )
          await moderator.keyboard.press('2');
        return consensus;
      },
      // The only voter has voted: the session reveals by itself.
      (v) => expect(v).toBe('M'),
    );
  });

  it('keeps only the tokens in local storage, and signing out forgets the access token', async () => {
    const keys = (page: Page) => page.evaluate(() => Object.keys(localStorage).sort());
    expect(await keys(people[0]!.page)).toEqual([`pp.seat.${code}`]);
    expect(await keys(moderator)).toEqual(['pp.access_token', `pp.seat.${custom}`]);
    const seat = await moderator.evaluate(
      (key) => JSON.parse(localStorage.getItem(key)!),
      `pp.seat.${custom}`,
    );
    expect(Object.keys(seat).sort()).toEqual(['id', 'token']);
    await moderator.getByRole('button', { name: 'Sign out' }).click();
    expect(await keys(moderator)).toEqual([`pp.seat.${custom}`]);
  });

  it('lets someone join only to watch: no cards, not counted among the voters', async () => {
    const context = await browser.newContext();
    const page = await watched(await context.newPage());
    await page.goto(`${platform.url}/room/${code}`);
    await page.getByLabel('Your name').fill('Olga');
    await page.getByLabel('Only watch (an observer does not vote)').check();
    await page.getByRole('button', { name: 'Join' }).click();
    await page.getByText('You are watching: observers do not vote.').waitFor({ timeout: STEP });
    expect(await page.getByRole('radiogroup').count()).toBe(0);
    const bob = people[0]!.page;
    await eventually(
      () => bob.getByRole('list', { name: 'Participants' }).locator('li').last().innerText(),
      (v) => expect(v).toMatch(/^Olga\s*observer$/),
    );
    expect(await textOf(bob.getByTestId('vote-count'))).toBe('0 of 3 voted');
    await context.close();
  });

  // How fast it renders is measured by `npm run bench` (e2e/bench/web-room.bench.ts), not here.
  it('marks when the room is rendered, fits 320 px, shows focus and respects reduced motion', async () => {
    const context = await browser.newContext({
      viewport: { width: 320, height: 640 },
      reducedMotion: 'reduce',
    });
    const page = await watched(await context.newPage());
    await page.goto(`${platform.url}/room/${code}`);
    await page.getByRole('heading', { name: 'Join the room' }).waitFor({ timeout: STEP });
    const rendered = await page.evaluate(() => performance.getEntriesByName('room-rendered')[0]?.startTime);
    expect(rendered).toEqual(expect.any(Number));

    await joinAs(page, 'Eve');
    const card = page.getByRole('radio', { name: '5', exact: true });
    await card.waitFor({ timeout: STEP });
    // (Page code as strings: this file is type-checked without the DOM's types.)
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(320);
    const transition = await page.evaluate<string>(
      "getComputedStyle(document.querySelector('[role=radio]')).transitionDuration",
    );
    expect(transition.split(',').every((d) => parseFloat(d) === 0)).toBe(true);

    await page.getByRole('radio').first().focus();
    await page.keyboard.press('ArrowRight');
    const focused = await page.evaluate<{ text: string; outline: string }>(
      '({ text: document.activeElement.textContent, outline: getComputedStyle(document.activeElement).outlineStyle })',
    );
    expect(focused.text).toBe('0.5');
    expect(focused.outline).toBe('solid');
    await page.screenshot({ path: join(artifactsDir, 'participant-320px.png'), fullPage: true });
    await context.close();
    expect(broken).toEqual([]);
  });

  it('keeps the built JavaScript under 150 KB gzipped', () => {
    const assets = join(webDist, 'assets');
    const scripts = readdirSync(assets).filter((f) => f.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    const gzipped = scripts.reduce((sum, f) => sum + gzipSync(readFileSync(join(assets, f))).length, 0);
    expect(gzipped).toBeLessThan(150 * 1024);
  });
});
