import type { Browser, Page } from 'playwright-core';
import {
  eventually,
  joinAs,
  openRoom,
  roomWithAStory,
  STEP,
  textOf,
  withBrowserPlatform,
} from './support/browser.ts';
import type { Platform } from './support/platform.ts';

/**
 * The web room in headless Chromium against the real platform, in sequences off the main path: a
 * moderator who signs out in the room, an import of rows without a header, a first reveal read out.
 */
describe('the web room, off the main path', () => {
  let platform: Platform;
  let browser: Browser;

  // The integrations unit reads the CSV pasted into the room.
  withBrowserPlatform(
    (started, chromium) => {
      [platform, browser] = [started, chromium];
    },
    { integrationsEnv: {} },
  );

  const room = (name: string) => roomWithAStory(platform, name);
  const open = (code: string, token?: string) => openRoom(browser, platform, code, token);

  it('offers a moderator who signs out in the room to join it, as anyone with the link', async () => {
    const { token, code } = await room('Signing out');
    const page = await open(code, token);
    await page.getByRole('button', { name: 'Reveal the votes' }).waitFor({ timeout: STEP });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Join the room' }).waitFor({ timeout: STEP });
    expect(await page.getByRole('button', { name: 'Reveal the votes' }).count()).toBe(0);
    await page.context().close();
  });

  it('reads the room again by itself when its first read fails: the network down, then a 503', async () => {
    const { token, code } = await room('A shaky start');
    const page = await open(code, token);
    await page.getByRole('button', { name: 'Reveal the votes' }).waitFor({ timeout: STEP });
    let reads = 0;
    await page.route(`**/sessions/${code}/room`, async (route) => {
      if (route.request().method() !== 'GET' || ++reads > 2) return route.continue();
      if (reads === 1) return route.abort('internetdisconnected');
      await route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({
          success: false,
          message: 'The service is unavailable',
          error: { code: 'service_unavailable' },
        }),
      });
    });
    await page.reload();
    await page.getByRole('button', { name: 'Reveal the votes' }).waitFor({ timeout: STEP });
    expect(reads).toBeGreaterThanOrEqual(3);
    await page.context().close();
  });

  it('says an archived session is read-only where the round offered to change the vote', async () => {
    const { token, code } = await room('Archived');
    const page = await open(code);
    await joinAs(page, 'Bob');
    await page.getByRole('radio', { name: '5', exact: true }).click();
    await page.getByText('You can change it until the reveal.').waitFor({ timeout: STEP });

    await platform.client.patch(`/sessions/${code}`, { token, body: { status: 'archived' } });
    await page.getByText('The session is archived: it is read-only.').waitFor({ timeout: STEP });
    expect(await page.getByText('You can change it').count()).toBe(0);
    expect(await page.getByRole('radio', { name: '5', exact: true }).isDisabled()).toBe(true);
    await page.context().close();
  });

  it('imports pasted rows without a header in one request after a preview, and the same rows again add nothing', async () => {
    const { token, code } = await room('A long backlog');
    const page = await open(code, token);
    page.setDefaultTimeout(STEP);
    const imports: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/stories$|import-confirm$/.test(new URL(r.url()).pathname))
        imports.push(new URL(r.url()).pathname);
    });
    await page.getByText('Import stories from CSV').click();
    const rows = 'Search,"Find, filter"\nCart,\nCheckout,\nInvoices,\nRefunds,Money back\n';
    await page.getByLabel('CSV').fill(rows);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('button', { name: 'Import 5 stories' }).click();
    await page.getByRole('status').filter({ hasText: 'Added 5 stories.' }).waitFor({ timeout: STEP });
    expect(imports).toEqual([`/sessions/${code}/integrations/import-confirm`]);

    const stories = await platform.client.get(`/sessions/${code}/stories`);
    expect(stories.body.stories.map((s: { title: string }) => s.title)).toEqual([
      'Login page',
      'Search',
      'Cart',
      'Checkout',
      'Invoices',
      'Refunds',
    ]);
    expect(stories.body.stories[1].description).toBe('Find, filter');

    await page.getByLabel('CSV').fill(rows);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('button', { name: 'Import 5 stories' }).click();
    await page.getByRole('status').filter({ hasText: 'Added 0 stories.' }).waitFor({ timeout: STEP });
    expect((await platform.client.get(`/sessions/${code}/stories`)).body.stories).toHaveLength(6);
    await page.context().close();
  }, 60_000);

  it('reads the first reveal out: the results are told by a live region that was on the page before', async () => {
    const { token, code } = await room('Read out');
    const page = await open(code);
    await joinAs(page, 'Bob');
    await page.getByRole('radio', { name: '5', exact: true }).click();
    await page.getByTestId('my-vote').waitFor({ timeout: STEP });
    // A live region is read out when what it holds changes; one added with its text is not.
    // (Page code as strings: this file is type-checked without the DOM's types.)
    await page.evaluate(
      "document.querySelectorAll('[aria-live], [role=status]').forEach((e) => e.setAttribute('data-was-here', ''))",
    );

    const { body } = await platform.client.get(`/sessions/${code}`);
    await platform.client.post(`/stories/${body.session.current_story.id}/reveal`, { token });
    await page.getByTestId('consensus').waitFor({ timeout: STEP });
    const told = await page.evaluate<string[]>(
      "[...document.querySelectorAll('[data-was-here]')].map((e) => e.textContent)",
    );
    expect(told).toContainEqual(expect.stringMatching(/Login page.*5/));
    await page.context().close();
  });
  it('shows a vote on the story it went to when the moderator opened another one while it was on its way', async () => {
    const { token, code } = await room('Switching stories');
    const added = await platform.client.post(`/sessions/${code}/stories`, {
      token,
      body: { title: 'Search' },
    });
    const page = await open(code);
    await joinAs(page, 'Bob');
    await page.getByRole('heading', { name: 'Login page', level: 2 }).waitFor({ timeout: STEP });
    // The vote leaves for "Login page"; the moderator opens "Search" before the server takes it.
    await page.route(`**/sessions/${code}/vote`, async (route) => {
      await platform.client.post(`/stories/${added.body.story.id}/activate`, { token });
      await page.getByRole('heading', { name: 'Search', level: 2 }).waitFor({ timeout: STEP });
      await route.continue();
    });
    await page.getByRole('radio', { name: '8', exact: true }).click();

    await eventually(
      () => textOf(page.getByTestId('my-vote')),
      (v) => expect(v).toBe('8'),
    );
    expect(await page.getByRole('radio', { name: '8', exact: true }).getAttribute('aria-checked')).toBe(
      'true',
    );
    await page.context().close();
  });
  it('fits 320 px with titles and names of one long word (a pasted link), the results and analytics shown', async () => {
    const word = (c: string, n: number) => c.repeat(n);
    const token = await platform.signUp('Ann');
    const created = await platform.client.post('/sessions', { token, body: { name: word('N', 200) } });
    const code = created.body.session.code as string;
    const story = await platform.client.post(`/sessions/${code}/stories`, {
      token,
      body: { title: `https://tracker.example.com/browse/${word('W', 160)}` },
    });
    const small = { viewport: { width: 320, height: 640 } };
    const guest = await (await browser.newContext(small)).newPage();
    await guest.goto(`${platform.url}/room/${code}`);
    const width = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth');
    await guest.getByRole('heading', { name: 'Join the room' }).waitFor({ timeout: STEP });
    expect(await width(guest)).toBeLessThanOrEqual(320);
    await joinAs(guest, word('M', 64));
    await guest.getByRole('radio', { name: '5', exact: true }).click();
    await guest.getByTestId('my-vote').waitFor({ timeout: STEP });
    await platform.client.post(`/stories/${story.body.story.id}/reveal`, { token });
    await guest.getByTestId('consensus').waitFor({ timeout: STEP });
    expect(await width(guest)).toBeLessThanOrEqual(320);

    const owner = await (await browser.newContext(small)).newPage();
    await owner.goto(platform.url + '/');
    await owner.evaluate((t) => localStorage.setItem('pp.access_token', t), token);
    await owner.reload();
    await owner.getByRole('link', { name: word('N', 200) }).waitFor({ timeout: STEP });
    expect(await width(owner)).toBeLessThanOrEqual(320);
    await owner.goto(`${platform.url}/room/${code}`);
    await owner.getByRole('button', { name: 'Show analytics' }).click();
    await owner.getByRole('table', { name: 'History' }).waitFor({ timeout: STEP });
    expect(await width(owner)).toBeLessThanOrEqual(320);
    await guest.context().close();
    await owner.context().close();
  });
  it('takes as many characters as the API in its fields: a title of 200 emoji, and no 201st', async () => {
    const { token, code } = await room('Emoji titles');
    const page = await open(code, token);
    const field = page.getByLabel('New story');
    await field.fill('🧪'.repeat(201));
    expect(await field.inputValue()).toBe('🧪'.repeat(200));
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await eventually(
      async () => (await platform.client.get(`/sessions/${code}/stories`, { token })).body.stories,
      (stories: Array<{ title: string }>) => expect(stories.map((s) => s.title)).toContain('🧪'.repeat(200)),
    );
    await page.context().close();
  });

  it('tells a participant the moderator removed why they are back at the join screen, live and after a reload', async () => {
    const { token, code } = await room('Removing');
    const page = await open(code);
    await joinAs(page, 'Bob');
    await page.getByRole('radiogroup', { name: 'Your estimate' }).waitFor({ timeout: STEP });
    const seat = await page.evaluate<{ id: number }>(`JSON.parse(localStorage.getItem('pp.seat.${code}'))`);

    await platform.client.delete(`/sessions/${code}/participants/${seat.id}`, { token });
    await page.getByRole('heading', { name: 'Join the room' }).waitFor({ timeout: STEP });
    const told = page.getByText('The moderator removed you from the room');
    await told.waitFor({ timeout: STEP });
    await joinAs(page, 'Bob');
    await page.getByRole('radiogroup', { name: 'Your estimate' }).waitFor({ timeout: STEP });
    expect(await told.count()).toBe(0);

    // Removed while the page was closed: the room, opened again, says so too.
    const context = page.context();
    const again = await page.evaluate<{ id: number }>(`JSON.parse(localStorage.getItem('pp.seat.${code}'))`);
    await page.close();
    await platform.client.delete(`/sessions/${code}/participants/${again.id}`, { token });
    const reopened = await context.newPage();
    await reopened.goto(`${platform.url}/room/${code}`);
    await reopened.getByText('The moderator removed you from the room').waitFor({ timeout: STEP });
    await context.close();
  });
});
