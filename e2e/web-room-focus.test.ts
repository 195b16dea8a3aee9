import type { Browser, Page } from 'playwright-core';
import { eventually, openRoom, roomWithAStory, STEP, withBrowserPlatform } from './support/browser.ts';
import type { Platform } from './support/platform.ts';

/**
 * The web room with the keyboard: where the focus goes when the button just used goes away with
 * what it did (on <body>, a keyboard user would start again from the top of the page).
 */
describe('the web room, the focus after an action', () => {
  let platform: Platform;
  let browser: Browser;

  withBrowserPlatform((started, chromium) => {
    [platform, browser] = [started, chromium];
  });

  /** The focused element: its tag, role and text. (Page code as a string: no DOM types here.) */
  const focused = (page: Page) =>
    page.evaluate<string>(
      "(e => `${e.tagName} ${e.getAttribute('role') ?? ''} ${e.textContent.slice(0, 80)}`)(document.activeElement)",
    );

  it('is on the cards after joining, on the round for an observer', async () => {
    const { code } = await roomWithAStory(platform, 'Joining');
    const page = await openRoom(browser, platform, code);
    await page.getByLabel('Your name').fill('Bob');
    await page.getByRole('button', { name: 'Join' }).press('Enter');
    await eventually(
      () => focused(page),
      (f) => expect(f).toBe('BUTTON radio 0'),
    );

    const watcher = await openRoom(browser, platform, code);
    await watcher.getByLabel('Your name').fill('Cleo');
    await watcher.getByLabel('Only watch (an observer does not vote)').check();
    await watcher.getByRole('button', { name: 'Join' }).press('Enter');
    await eventually(
      () => focused(watcher),
      (f) => expect(f).toBe('H2  Login page'),
    );
    await page.context().close();
    await watcher.context().close();
  });

  it("is on the owner's cards after Vote too, on the results after each reveal", async () => {
    const { token, code } = await roomWithAStory(platform, 'Revealing');
    await platform.client.post(`/sessions/${code}/stories`, { token, body: { title: 'Search' } });
    const page = await openRoom(browser, platform, code, token);
    await page.getByRole('button', { name: 'Vote too' }).press('Enter');
    await eventually(
      () => focused(page),
      (f) => expect(f).toBe('BUTTON radio 0'),
    );
    await page.keyboard.press('Enter');
    await page.getByTestId('my-vote').waitFor({ timeout: STEP });

    // The button stays, for the next story: the focus does not (a second Enter would reveal it too).
    await page.getByRole('button', { name: 'Reveal the votes' }).press('Enter');
    await eventually(
      () => focused(page),
      (f) => expect(f).toBe('H2  Results: Login page'),
    );
    // The last story: the button goes.
    await page.getByRole('heading', { name: 'Search', level: 2 }).waitFor({ timeout: STEP });
    await page.getByRole('button', { name: 'Reveal the votes' }).press('Enter');
    await eventually(
      () => focused(page),
      (f) => expect(f).toBe('H2  Results: Search'),
    );
    expect(await page.getByRole('button', { name: 'Reveal the votes' }).count()).toBe(0);
    await page.context().close();
  });

  /**
   * Page code: the answer to joining comes just after the live room has shown the join (its
   * participant.joined event), as it does when the stream is quicker than the request's answer.
   */
  const streamBeforeAnswer = `(() => {
    const original = window.fetch.bind(window);
    let streamed;
    const joinedOnStream = new Promise((resolve) => (streamed = resolve));
    window.fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      const res = await original(input, init);
      if (url.endsWith('/events') && res.body) {
        const decoder = new TextDecoder();
        const watched = res.body.pipeThrough(new TransformStream({
          transform(chunk, out) {
            out.enqueue(chunk);
            if (decoder.decode(chunk, { stream: true }).includes('participant.joined')) streamed();
          },
        }));
        return new Response(watched, { status: res.status, statusText: res.statusText, headers: res.headers });
      }
      if (url.endsWith('/join')) {
        await joinedOnStream;
      }
      return res;
    };
  })()`;

  it("is on the owner's cards after Vote too when the live room shows the join before the answer", async () => {
    const { token, code } = await roomWithAStory(platform, 'Stream first');
    const page = await openRoom(browser, platform, code, token, streamBeforeAnswer);
    await page.getByText('Live', { exact: true }).waitFor({ timeout: STEP });
    await page.getByRole('button', { name: 'Vote too' }).press('Enter');
    await eventually(
      () => focused(page),
      (f) => expect(f).toBe('BUTTON radio 0'),
    );
    await page.context().close();
  });
});
