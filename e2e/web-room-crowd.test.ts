/**
 * The web room at 200 people, in headless Chromium against the real platform: the page opens the room
 * with one read (and its live stream), shows the counts and who is still to vote rather than a list as
 * long as the room (the list is on demand, and scrolls), and a vote shows on every page. Its votes
 * carry the participant's token.
 */
import type { Browser, Page } from 'playwright-core';
import { eventually, roomWithAStory, STEP, textOf, withBrowserPlatform } from './support/browser.ts';
import type { Platform } from './support/platform.ts';

const VOTERS = 199;

describe('the web room at 200 people', () => {
  let platform: Platform;
  let browser: Browser;
  withBrowserPlatform((started, chromium) => {
    [platform, browser] = [started, chromium];
  });

  /** A page seated as a participant who joined through the API; the API requests it makes. */
  async function seated(code: string, seat: { id: number; token: string }) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const requests: Array<{ method: string; path: string; headers: Record<string, string> }> = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/sessions/'))
        requests.push({ method: r.method(), path: url.pathname, headers: r.headers() });
    });
    await page.goto(`${platform.url}/`);
    await page.evaluate(
      ([key, value]) => localStorage.setItem(key!, value!),
      [`pp.seat.${code}`, JSON.stringify(seat)],
    );
    await page.goto(`${platform.url}/room/${code}`);
    return { page, requests };
  }
  const voteCount = (page: Page) => textOf(page.getByTestId('vote-count'));

  it('opens with one read, shows the counts and who is still to vote, and a vote on every page', async () => {
    const { code } = await roomWithAStory(platform, 'A crowd');
    // One after the other: joining order is the order of their names.
    const seats: Array<{ id: number; token: string }> = [];
    for (let i = 1; i <= VOTERS; i++) {
      const name = `Person ${String(i).padStart(3, '0')}`;
      const res = await platform.client.post(`/sessions/${code}/join`, { body: { name } });
      expect(res.status).toBe(200);
      seats.push(res.body.participant);
    }
    const watcher = await platform.client.post(`/sessions/${code}/join`, {
      body: { name: 'Watcher', role: 'observer' },
    });
    expect(watcher.status).toBe(200);

    const pages = await Promise.all([seats[0]!, seats[100]!, seats[198]!].map((s) => seated(code, s)));
    for (const { page, requests } of pages) {
      await page.getByRole('heading', { name: 'People (200)' }).waitFor({ timeout: STEP });
      expect(await page.evaluate("performance.getEntriesByName('room-rendered').length")).toBe(1);
      // The room in one read, then its live stream: nothing else.
      expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        `GET /sessions/${code}/room`,
        `GET /sessions/${code}/events`,
      ]);
      expect(await textOf(page.getByTestId('people-counts'))).toBe('199 voting, 1 watching');
      expect(await voteCount(page)).toBe('0 of 199 voted');
      expect(await textOf(page.getByTestId('still-to-vote'))).toBe(
        'Still to vote (199): Person 001, Person 002, Person 003, Person 004, Person 005, Person 006, Person 007, Person 008 and 191 more',
      );
      // The whole list is on demand, and does not stretch the page when shown.
      expect(await page.locator('details.people-all').getAttribute('open')).toBeNull();
      const height = await page.evaluate('document.documentElement.scrollHeight');
      await page.getByText('Everyone (200)').click();
      const list = page.getByRole('list', { name: 'Participants' });
      expect(await list.locator('li').count()).toBe(200);
      const listHeight = (await list.boundingBox())!.height;
      expect(listHeight).toBeLessThan(450);
      expect(await page.evaluate('document.documentElement.scrollHeight')).toBeLessThan(
        (height as number) + 450,
      );
    }

    // One votes through the API (someone elsewhere), one on its page.
    const other = seats[50]!;
    const viaApi = await platform.client.post(`/sessions/${code}/vote`, {
      body: { participant_id: other.id, vote: '5' },
      headers: { 'x-participant-token': other.token },
    });
    expect(viaApi.status).toBe(200);
    for (const { page } of pages)
      await eventually(
        () => voteCount(page),
        (v) => expect(v).toBe('1 of 199 voted'),
      );
    const [first, middle] = pages as [(typeof pages)[0], (typeof pages)[0]];
    await first.page.getByRole('radio', { name: '8', exact: true }).click();
    for (const { page } of pages) {
      await eventually(
        () => voteCount(page),
        (v) => expect(v).toBe('2 of 199 voted'),
      );
      await eventually(
        () => textOf(page.getByTestId('still-to-vote')),
        (v) => expect(v).toMatch(/^Still to vote \(197\): Person 002, Person 003, .* and 189 more$/),
      );
    }
    // The page sent its participant's token with its vote.
    const votes = first.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/vote'));
    expect(votes.map((r) => r.headers['x-participant-token'])).toEqual([seats[0]!.token]);

    // A page opened now knows who voted before it opened.
    const late = await seated(code, seats[150]!);
    await late.page.getByRole('heading', { name: 'People (200)' }).waitFor({ timeout: STEP });
    await eventually(
      () => voteCount(late.page),
      (v) => expect(v).toBe('2 of 199 voted'),
    );
    expect(await middle.page.getByRole('radio', { name: '8', exact: true }).isChecked()).toBe(false);
    for (const { page } of [...pages, late]) await page.context().close();
  }, 120_000);
});
