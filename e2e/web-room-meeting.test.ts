import jsqr from 'jsqr';
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
import { de } from '../web/src/i18n/de.ts';
import { en } from '../web/src/i18n/en.ts';

/** The QR code reader (a CommonJS module: its function is its default export, however it is loaded). */
type ReadQr = (pixels: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
const jsQR = ((jsqr as { default?: unknown }).default ?? jsqr) as ReadQr;

/**
 * The web room runs the meeting, in headless Chromium against the real platform: the round's
 * countdown, the quick vote, the figures beside the consensus, the story's details, the people in
 * the room, the languages and the room's QR code. The stories unit looks for rounds due every
 * 100 ms; a closed stream is marked away after a second.
 */
describe('the web room runs the meeting', () => {
  let platform: Platform;
  let browser: Browser;

  withBrowserPlatform(
    (started, chromium) => {
      [platform, browser] = [started, chromium];
    },
    {
      storiesEnv: { VOTE_BY_POLL_MS: '100' },
      sessionsEnv: { PRESENCE_GRACE_MS: '1000', PRESENCE_SWEEP_MS: '100' },
    },
  );

  const open = (code: string, token?: string) => openRoom(browser, platform, code, token);
  /** A guest's page, joined and shown the cards. */
  const guest = async (code: string, name: string) => {
    const page = await open(code);
    await joinAs(page, name);
    await page.getByRole('radiogroup', { name: 'Your estimate' }).waitFor({ timeout: STEP });
    return page;
  };
  const results = (page: Page) => page.getByRole('region', { name: /^Results/ });
  const closeAll = (...pages: Page[]) => Promise.all(pages.map((p) => p.context().close()));

  it('shows the countdown to three participants, a page opened late included, and reveals at zero', async () => {
    const { token, code } = await roomWithAStory(platform, 'Timed round');
    const owner = await open(code, token);
    const [bob, cleo, dan] = [await guest(code, 'Bob'), await guest(code, 'Cleo'), await guest(code, 'Dan')];
    await bob.getByRole('radio', { name: '5', exact: true }).click();
    await cleo.getByRole('radio', { name: '5', exact: true }).click();

    await owner.getByLabel('Length').selectOption('custom');
    await owner.getByLabel('Seconds (5 to 3600)').fill('15');
    await owner.getByLabel('At zero').selectOption('reveal');
    await owner.getByRole('button', { name: 'Start the countdown' }).click();

    for (const page of [owner, bob, cleo, dan]) {
      await eventually(
        () => textOf(page.getByRole('timer', { name: 'Time left' })),
        (v) => expect(v).toMatch(/^0:(0[1-9]|1[0-5])$/),
      );
      expect(await page.getByText('The votes are revealed at zero.').count()).toBe(1);
    }
    // Screen readers are told it started, once, not each second.
    expect(await textOf(bob.getByTestId('countdown-announced'))).toBe('Countdown started: 15 seconds.');
    // Someone who comes in during the countdown reads it from the room.
    const late = await guest(code, 'Eve');
    await eventually(
      () => textOf(late.getByRole('timer', { name: 'Time left' })),
      (v) => expect(v).toMatch(/^0:(0[1-9]|1[0-5])$/),
    );

    for (const page of [owner, bob, cleo, dan, late]) await results(page).waitFor({ timeout: 25_000 });
    expect(await textOf(dan.getByTestId('consensus'))).toBe('5');
    // The round it counted down is over: no clock left on the page.
    expect(await owner.getByRole('timer').count()).toBe(0);
    await closeAll(owner, bob, cleo, dan, late);
  }, 90_000);

  it('lets the owner stop a countdown that closes the round, and the cards take votes again', async () => {
    const { token, code } = await roomWithAStory(platform, 'Stopped');
    const owner = await open(code, token);
    const bob = await guest(code, 'Bob');
    await owner.getByLabel('Length').selectOption('custom');
    await owner.getByLabel('Seconds (5 to 3600)').fill('5');
    await owner.getByLabel('At zero').selectOption('close');
    await owner.getByRole('button', { name: 'Start the countdown' }).click();
    await bob.getByText('Voting closes at zero.').waitFor({ timeout: STEP });
    await bob.getByText('Voting has closed.').waitFor({ timeout: STEP });
    expect(await bob.getByRole('radio', { name: '3', exact: true }).isDisabled()).toBe(true);

    await owner.getByRole('button', { name: 'Stop the countdown' }).click();
    await eventually(
      () => bob.getByRole('timer').count(),
      (n) => expect(n).toBe(0),
    );
    await bob.getByRole('radio', { name: '3', exact: true }).click();
    await eventually(
      () => textOf(bob.getByTestId('my-vote')),
      (v) => expect(v).toBe('3'),
    );
    await closeAll(owner, bob);
  }, 60_000);
  it('runs a round from the quick vote, without a prepared story', async () => {
    const token = await platform.signUp('Quinn');
    const created = await platform.client.post('/sessions', { token, body: { name: 'Ad hoc' } });
    const code = created.body.session.code as string;
    const owner = await open(code, token);
    const bob = await open(code);
    await joinAs(bob, 'Bob');
    await bob.getByRole('heading', { name: 'No story open' }).waitFor({ timeout: STEP });

    await owner.getByRole('button', { name: 'Quick vote' }).click();
    for (const page of [owner, bob])
      await page
        .getByRole('heading', { name: /^Quick vote \d\d:\d\d$/, level: 2 })
        .waitFor({ timeout: STEP });
    await bob.getByRole('radio', { name: '8', exact: true }).click();
    await eventually(
      () => textOf(owner.getByTestId('vote-count')),
      (v) => expect(v).toBe('1 of 1 voted'),
    );
    await owner.getByRole('button', { name: 'Reveal the votes' }).click();
    await results(bob).waitFor({ timeout: STEP });
    expect(await textOf(bob.getByTestId('consensus'))).toBe('8');
    await closeAll(owner, bob);
  }, 60_000);
  it('shows the mean, median, agreement and spread beside the consensus, and celebrates when everyone agrees', async () => {
    const { token, code } = await roomWithAStory(platform, 'Figures');
    const owner = await open(code, token);
    const bob = await guest(code, 'Bob');
    const cleo = await guest(code, 'Cleo');
    // One who asks for less motion sees no celebration move.
    const calm = await (await browser.newContext({ reducedMotion: 'reduce' })).newPage();
    await calm.goto(`${platform.url}/room/${code}`);
    await joinAs(calm, 'Dan');
    await calm.getByRole('radiogroup', { name: 'Your estimate' }).waitFor({ timeout: STEP });

    await bob.getByRole('radio', { name: '3', exact: true }).click();
    await cleo.getByRole('radio', { name: '5', exact: true }).click();
    await calm.getByRole('radio', { name: '5', exact: true }).click();
    await eventually(
      () => textOf(owner.getByTestId('vote-count')),
      (v) => expect(v).toBe('3 of 3 voted'),
    );
    await owner.getByRole('button', { name: 'Reveal the votes' }).click();
    await results(bob).waitFor({ timeout: STEP });
    const figures = async (page: Page) =>
      Object.fromEntries(
        await Promise.all(
          ['mean', 'median', 'agreement', 'spread'].map(async (f) => [
            f,
            await textOf(page.getByTestId(`figure-${f}`)),
          ]),
        ),
      );
    expect(await textOf(bob.getByTestId('consensus'))).toBe('5');
    expect(await figures(bob)).toEqual({
      mean: '4.3',
      median: '5',
      agreement: '67 % (2 of 3)',
      spread: '3 – 5',
    });
    expect(await bob.getByTestId('all-agree').count()).toBe(0);

    // Again, and this time everyone agrees.
    await owner.getByRole('button', { name: 'Vote again' }).first().click();
    await eventually(
      () => textOf(bob.getByTestId('vote-count')),
      (v) => expect(v).toBe('0 of 3 voted'),
    );
    for (const page of [bob, cleo, calm]) await page.getByRole('radio', { name: '8', exact: true }).click();
    await eventually(
      () => textOf(owner.getByTestId('vote-count')),
      (v) => expect(v).toBe('3 of 3 voted'),
    );
    await owner.getByRole('button', { name: 'Reveal the votes' }).click();
    for (const page of [bob, calm])
      await eventually(
        () => textOf(page.getByTestId('all-agree')),
        (v) => expect(v).toContain('Everyone agrees!'),
      );
    expect(await figures(calm)).toMatchObject({ mean: '8', agreement: '100 % (3 of 3)', spread: '8' });
    expect(await bob.getByTestId('celebration').count()).toBe(1);
    expect(await calm.getByTestId('celebration').count()).toBe(0);
    await closeAll(owner, bob, cleo, calm);
  }, 90_000);

  it("lets voters read the open story's description and acceptance criteria, as the owner edits them in place", async () => {
    const token = await platform.signUp('Ann');
    const code = (await platform.client.post('/sessions', { token, body: { name: 'Details' } })).body.session
      .code as string;
    await platform.client.post(`/sessions/${code}/stories`, {
      token,
      body: {
        title: 'Login page',
        description: 'Email and password.',
        acceptance_criteria: 'Locks after 5 tries',
      },
    });
    const owner = await open(code, token);
    const bob = await guest(code, 'Bob');
    expect(await textOf(bob.getByTestId('story-description'))).toBe('Email and password.');
    expect(await textOf(bob.getByTestId('story-acceptance'))).toBe('Locks after 5 tries');
    expect(await bob.getByRole('button', { name: 'Edit the story' }).count()).toBe(0);

    await owner.getByRole('button', { name: 'Edit the story' }).click();
    const form = owner.getByRole('form', { name: 'Edit the story' });
    await form.getByLabel('Description').fill('Email and password, or a magic link.');
    await form.getByLabel('Title').fill('Sign-in page');
    await form.getByRole('button', { name: 'Save' }).click();
    await bob.getByRole('heading', { name: 'Sign-in page', level: 2 }).waitFor({ timeout: STEP });
    await eventually(
      () => textOf(bob.getByTestId('story-description')),
      (v) => expect(v).toBe('Email and password, or a magic link.'),
    );
    await closeAll(owner, bob);
  }, 60_000);
  it('lets the owner remove someone, who is told, make someone an observer, and hand the moderator role over to someone who then reveals', async () => {
    const { token, code } = await roomWithAStory(platform, 'People');
    const owner = await open(code, token);
    owner.on('dialog', (d) => void d.accept());
    const [bob, cleo, dan] = [await guest(code, 'Bob'), await guest(code, 'Cleo'), await guest(code, 'Dan')];
    const row = (page: Page, name: string) =>
      page.getByRole('list', { name: 'Participants' }).locator('li', { hasText: name });
    const act = async (name: string, action: string) => {
      await owner.getByLabel(`Actions for ${name}`).click();
      await row(owner, name).getByRole('button', { name: action }).click();
    };

    await act('Bob', 'Remove from the room');
    await bob
      .getByText('The moderator removed you from the room: join again to take part.')
      .waitFor({ timeout: STEP });
    await bob.getByRole('heading', { name: 'Join the room' }).waitFor({ timeout: STEP });
    await eventually(
      () => row(cleo, 'Bob').count(),
      (n) => expect(n).toBe(0),
    );

    await act('Cleo', 'Make observer');
    await cleo.getByText('You are watching: observers do not vote.').waitFor({ timeout: STEP });
    expect(await cleo.getByRole('radiogroup', { name: 'Your estimate' }).count()).toBe(0);

    // Before the hand-over, Dan votes and has no round controls; after it, Dan reveals the round.
    const reveal = (page: Page) => page.getByRole('button', { name: 'Reveal the votes', exact: true });
    await dan.getByRole('radio', { name: '8', exact: true }).click();
    expect(await reveal(dan).count()).toBe(0);
    await act('Dan', 'Make moderator');
    await eventually(
      () => textOf(row(dan, 'Dan')),
      (v) => expect(v).toContain('moderator'),
    );
    await reveal(dan).click();
    for (const page of [dan, cleo, owner])
      await eventually(
        () => textOf(results(page)),
        (v) => expect(v).toContain('8'),
      );
    await closeAll(owner, bob, cleo, dan);
  }, 90_000);

  it('shows who is connected now, and someone away within seconds of closing their tab', async () => {
    const { token, code } = await roomWithAStory(platform, 'Presence');
    const owner = await open(code, token);
    const bob = await guest(code, 'Bob');
    const bobRow = owner.getByRole('list', { name: 'Participants' }).locator('li', { hasText: 'Bob' });
    await eventually(
      () => bobRow.getAttribute('data-connected', { timeout: 1_000 }).catch(() => undefined),
      (v) => expect(v).toBe('true'),
    );
    expect(await bobRow.getByRole('img', { name: 'online' }).count()).toBe(1);
    await bob.context().close();
    await eventually(
      () => bobRow.getAttribute('data-connected', { timeout: 1_000 }).catch(() => undefined),
      (v) => expect(v).toBe('false'),
      8_000,
    );
    expect(await bobRow.getByRole('img', { name: 'away' }).count()).toBe(1);
    await closeAll(owner);
  }, 60_000);
  it("speaks German to a German browser, with no English text left on the room's main screens", async () => {
    const token = await platform.signUp('Anna');
    const code = (await platform.client.post('/sessions', { token, body: { name: 'Planung' } })).body.session
      .code as string;
    await platform.client.post(`/sessions/${code}/stories`, {
      token,
      body: { title: 'Anmeldeseite', description: 'E-Mail und Passwort.' },
    });
    const german = async () => (await browser.newContext({ locale: 'de-DE' })).newPage();
    const owner = await german();
    await owner.goto(platform.url + '/');
    await owner.evaluate((t) => localStorage.setItem('pp.access_token', t), token);
    await owner.goto(`${platform.url}/room/${code}`);
    const berta = await german();
    await berta.goto(`${platform.url}/room/${code}`);
    await berta.getByRole('heading', { name: 'Dem Raum beitreten' }).waitFor({ timeout: STEP });
    // Said in English by every screen until now, so checked on the join screen too.
    const screens: string[] = [await berta.locator('body').innerText()];
    await berta.getByLabel('Dein Name').fill('Berta');
    await berta.getByRole('button', { name: 'Beitreten' }).click();
    await berta.getByRole('radio', { name: '5', exact: true }).click();
    await eventually(
      () => textOf(owner.getByTestId('vote-count')),
      (v) => expect(v).toBe('1 von 1 haben abgestimmt'),
    );
    screens.push(await owner.locator('body').innerText(), await berta.locator('body').innerText());
    await owner.getByRole('button', { name: 'Stimmen aufdecken' }).click();
    await berta.getByRole('region', { name: 'Ergebnis: Anmeldeseite' }).waitFor({ timeout: STEP });
    screens.push(await owner.locator('body').innerText(), await berta.locator('body').innerText());
    // The home page too: the owner's sessions and a new one.
    await owner.goto(platform.url + '/');
    await owner.getByRole('heading', { name: 'Deine Sitzungen' }).waitFor({ timeout: STEP });
    await owner.getByRole('link', { name: 'Planung' }).waitFor({ timeout: STEP });
    screens.push(await owner.locator('body').innerText());

    // No text of the English catalog that German says otherwise, and none of English's common words.
    const english = Object.entries(en)
      .filter(([k, v]) => typeof v === 'string' && v.length > 3 && v !== (de as Record<string, unknown>)[k])
      .map(([, v]) => v as string);
    for (const screen of screens) {
      // As words: "Export" is not in "Exportieren".
      const said = (text: string) =>
        new RegExp(`(^|[^\\p{L}])${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}])`, 'u').test(
          screen,
        );
      expect(english.filter(said)).toEqual([]);
      expect(
        screen.match(/\b(the|and|you|your|votes?|voted|people|reveal|join|waiting|room|session|of)\b/gi),
      ).toBeNull();
    }

    // The switch in the page changes the language at once, and the next visit keeps it.
    await berta.getByRole('combobox', { name: 'Sprache' }).selectOption('fr');
    await berta.getByRole('heading', { name: 'Résultats : Anmeldeseite' }).waitFor({ timeout: STEP });
    await berta.reload();
    await berta.getByRole('heading', { name: 'Résultats : Anmeldeseite' }).waitFor({ timeout: STEP });
    await closeAll(owner, berta);
  }, 60_000);
  it("shows the room's link as a QR code beside the code, which a reader decodes to the link", async () => {
    const { code } = await roomWithAStory(platform, 'Sharing');
    const page = await guest(code, 'Bob');
    const qr = page.getByRole('img', { name: 'QR code of the room link' });
    await qr.waitFor({ timeout: STEP });
    const size = Number(await qr.getAttribute('data-size'));
    const path = (await qr.locator('path').getAttribute('d')) ?? '';
    // The SVG's dark modules drawn into pixels, 4 per module, and read as a phone's camera would.
    const SCALE = 4;
    const width = size * SCALE;
    const pixels = new Uint8ClampedArray(width * width * 4).fill(255);
    for (const [, x, y] of path.matchAll(/M(\d+) (\d+)h1v1h-1z/g))
      for (let dy = 0; dy < SCALE; dy++)
        for (let dx = 0; dx < SCALE; dx++) {
          const at = ((Number(y) * SCALE + dy) * width + Number(x) * SCALE + dx) * 4;
          pixels.fill(0, at, at + 3);
        }
    const read = jsQR(pixels, width, width);
    expect(read?.data).toBe(`${platform.url}/room/${code}`);
    expect(await page.locator('.share').getByText(code, { exact: true }).count()).toBe(1);
    await closeAll(page);
  }, 60_000);
});
