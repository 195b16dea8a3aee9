import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { withOwnConnection } from '@pp/db';
import { tableReads, until } from '@pp/testing';
import { rooms } from './support/room.ts';
import { asService, asUser, startSessions, type SessionsHarness } from './support/sessions-harness.ts';

let h: SessionsHarness;
let r: ReturnType<typeof rooms>;
beforeAll(async () => {
  h = await startSessions();
  r = rooms(h);
});
afterAll(() => h.stop());

const patch = (code: string, body: unknown) =>
  h.client.patch(`/sessions/${code}`, { body, headers: asUser('ann') });

describe('votes: casting', () => {
  it('records a vote on the current story and answers the vote and the stats', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    await r.join(session.code, 'Cleo');
    const story = await r.openStory(session);
    const res = await r.vote(session.code.toLowerCase(), bob.id, '5');
    expect(res.status).toBe(200);
    expect(res.body.vote).toEqual({
      id: expect.any(Number),
      participant_id: bob.id,
      story_id: story.id,
      value: '5',
      updated_at: expect.any(String),
    });
    expect(res.body.stats).toEqual({ votes_cast: 1, total_participants: 2, all_voted: false });
  });

  it('replaces the first vote when a participant votes twice', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    await r.openStory(session);
    const first = await r.vote(session.code, bob.id, '3');
    const second = await r.vote(session.code, bob.id, '8');
    expect(second.status).toBe(200);
    expect(second.body.vote).toMatchObject({ id: first.body.vote.id, value: '8' });
    expect(second.body.stats).toEqual({ votes_cast: 1, total_participants: 1, all_voted: true });
    const sealed = await r.seal(session.id, second.body.vote.story_id);
    expect(sealed.body.votes.map((v: { value: string }) => v.value)).toEqual(['8']);
  });

  it('counts 50 participants joining and voting at once: 50 votes cast, and the last answers say all voted', async () => {
    const session = await r.createSession('ann');
    const voters = await Promise.all(
      Array.from({ length: 50 }, (_, i) => r.join(session.code, `Voter ${i}`)),
    );
    await r.openStory(session);
    const answers = await Promise.all(voters.map((v) => r.vote(session.code, v.id, '13')));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    // Votes commit side by side: counts may repeat, but none exceeds 50 and the last voter sees all 50.
    const counts = answers.map((a) => a.body.stats.votes_cast);
    expect(Math.max(...counts)).toBe(50);
    expect(counts.every((c) => c >= 1 && c <= 50)).toBe(true);
    expect(answers.filter((a) => a.body.stats.all_voted).length).toBeGreaterThanOrEqual(1);
    expect(answers.filter((a) => a.body.stats.all_voted).every((a) => a.body.stats.votes_cast === 50)).toBe(
      true,
    );
    expect(answers.every((a) => a.body.stats.total_participants === 50)).toBe(true);
  });

  it('hands a round’s votes over by looking each voter up by key, never reading every participant', async () => {
    const session = await r.createSession('ann');
    const voters = [
      await r.join(session.code, 'Ann'),
      await r.join(session.code, 'Bob'),
      await r.join(session.code, 'Cleo'),
    ];
    const story = await r.openStory(session);
    for (const [i, v] of voters.entries()) await r.vote(session.code, v.id, ['3', '5', '8'][i]!);
    const { rows, reads } = await tableReads(
      h.databaseUrl,
      { text: 'select round_votes($1) as votes', values: [story.id] },
      ['participants'],
    );
    expect(rows[0]!.votes).toEqual([
      { participant: { id: voters[0]!.id, name: 'Ann' }, value: '3' },
      { participant: { id: voters[1]!.id, name: 'Bob' }, value: '5' },
      { participant: { id: voters[2]!.id, name: 'Cleo' }, value: '8' },
    ]);
    expect(reads.participants).toEqual({ seqScans: 0, indexScans: 3, rowsRead: 3 });
  });

  it('leaves observers out of the count and refuses their votes with 403', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    const olga = await r.join(session.code, 'Olga', { role: 'observer' });
    await r.openStory(session);
    const refused = await r.vote(session.code, olga.id, '5');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('observer_cannot_vote');
    expect((await r.vote(session.code, bob.id, '5')).body.stats).toEqual({
      votes_cast: 1,
      total_participants: 1,
      all_voted: true,
    });
  });

  it('answers 404 for a participant of another session and records nothing there', async () => {
    const mine = await r.createSession('ann');
    const other = await r.createSession('ann');
    const stranger = await r.join(other.code, 'Stranger');
    await r.join(mine.code, 'Bob');
    await r.openStory(mine);
    await r.openStory(other);
    const res = await r.vote(mine.code, stranger.id, '5');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('participant_not_found');
    expect((await r.vote(mine.code, 999_999, '5')).status).toBe(404);
    const counted = await r.vote(other.code, stranger.id, '1');
    expect(counted.body.stats.votes_cast).toBe(1);
  });

  it('takes only a card of the session’s deck (422 with errors.vote)', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    const story = await r.openStory(session);
    for (const value of ['4', 'XL', '', 'coffee-please']) {
      const res = await r.vote(session.code, bob.id, value);
      expect(res.status).toBe(422);
      expect(res.body.errors).toHaveProperty('vote');
    }
    await patch(session.code, { voting_system: 'tshirt' });
    expect((await r.vote(session.code, bob.id, 'XL')).status).toBe(200);
    expect((await r.vote(session.code, bob.id, '5')).status).toBe(422);
    // The XL vote would be no card of the next deck: it goes first.
    await r.reset(session.id, story);
    await patch(session.code, { voting_system: 'custom', custom_deck_values: ['small', 'big'] });
    expect((await r.vote(session.code, bob.id, 'big')).status).toBe(200);
    expect((await r.vote(session.code, bob.id, 'XL')).status).toBe(422);
  });

  it('refuses a field it does not take (a story of the client’s choosing) with 422, and counts nothing', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    await r.openStory(session);
    const res = await h.client.post(`/sessions/${session.code}/vote`, {
      body: { participant_id: bob.id, vote: '5', story_id: randomUUID() },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors._body).toEqual([expect.stringContaining('story_id')]);
    expect((await r.vote(session.code, bob.id, '5')).body.stats.votes_cast).toBe(1);
  });
});

describe('votes: state conflicts and tokens', () => {
  it('answers 409 no_open_story when no story is current', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    const res = await r.vote(session.code, bob.id, '5');
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('no_open_story');
  });

  it('answers 409 session_not_active when the session is paused', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    await r.openStory(session);
    await patch(session.code, { status: 'paused' });
    const res = await r.vote(session.code, bob.id, '5');
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('session_not_active');
  });

  it('answers 409 voting_closed once the vote-by deadline has passed', async () => {
    let now = Date.now();
    const clocked = await startSessions({ now: () => new Date(now) });
    try {
      const cr = rooms(clocked);
      const session = await cr.createSession('ann');
      const bob = await cr.join(session.code, 'Bob');
      await cr.openStory(session);
      const deadline = new Date(now + 60_000).toISOString();
      await clocked.client.patch(`/sessions/${session.code}`, {
        body: { voteby_enabled: true, vote_by_at: deadline },
        headers: asUser('ann'),
      });
      expect((await cr.vote(session.code, bob.id, '5')).status).toBe(200);
      now += 61_000;
      const late = await cr.vote(session.code, bob.id, '8');
      expect(late.status).toBe(409);
      expect(late.body.error.code).toBe('voting_closed');
    } finally {
      await clocked.stop();
    }
  });

  it('checks X-Participant-Token when sent, and requires it when the session says so', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    const cleo = await r.join(session.code, 'Cleo');
    await r.openStory(session);
    const withToken = (token: string) => ({ 'x-participant-token': token });
    const wrong = await r.vote(session.code, bob.id, '5', withToken(cleo.token));
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.code).toBe('invalid_participant_token');
    expect((await r.vote(session.code, cleo.id, '5')).status).toBe(200);
    expect((await r.vote(session.code, bob.id, '5', withToken(bob.token))).status).toBe(200);
    await patch(session.code, { require_participant_token: true });
    const missing = await r.vote(session.code, cleo.id, '5');
    expect(missing.status).toBe(403);
    expect(missing.body.error.code).toBe('participant_token_required');
    expect((await r.vote(session.code, cleo.id, '8', withToken(cleo.token))).status).toBe(200);
  });

  it('takes a vote without the token until the participant votes with it, and refuses one after (403)', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    const story = await r.openStory(session);
    const withToken = { 'x-participant-token': bob.token };
    // A client that sends only participant_id keeps working...
    expect((await r.vote(session.code, bob.id, '3')).status).toBe(200);
    expect((await r.vote(session.code, bob.id, '5')).status).toBe(200);
    // ...until the participant votes with its token: then its id alone votes no more.
    expect((await r.vote(session.code, bob.id, '8', withToken)).status).toBe(200);
    const impostor = await r.vote(session.code, bob.id, '1');
    expect([impostor.status, impostor.body.error.code]).toEqual([403, 'participant_token_required']);
    const wrong = await r.vote(session.code, bob.id, '1', { 'x-participant-token': 'ppt_forged' });
    expect(wrong.body.error.code).toBe('invalid_participant_token');
    expect((await r.vote(session.code, bob.id, '13', withToken)).status).toBe(200);
    // In a later round too, and the votes refused were not counted.
    const sealed = await r.seal(session.id, story.id);
    expect(sealed.body.votes.map((v: { value: string }) => v.value)).toEqual(['13']);
    await r.openStory(session, 'Sign-up page', 2);
    expect((await r.vote(session.code, bob.id, '2')).body.error.code).toBe('participant_token_required');
    expect((await r.vote(session.code, bob.id, '2', withToken)).status).toBe(200);
  });

  it('marks the voter once when its first votes with the token come at once, and refuses the id alone after', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    await r.openStory(session);
    const withToken = { 'x-participant-token': bob.token };
    const answers = await Promise.all(
      ['1', '2', '3', '5', '8'].map((value) => r.vote(session.code, bob.id, value, withToken)),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await r.vote(session.code, bob.id, '1')).body.error.code).toBe('participant_token_required');
  });

  it('stops an earlier token from working once the signed-in user joins again', async () => {
    const session = await r.createSession('ann');
    const first = (
      await h.client.post(`/sessions/${session.code}/join`, { body: {}, headers: asUser('dan', 'Dan') })
    ).body.participant;
    const again = (
      await h.client.post(`/sessions/${session.code}/join`, { body: {}, headers: asUser('dan', 'Dan') })
    ).body.participant;
    await r.openStory(session);
    expect((await r.vote(session.code, first.id, '5', { 'x-participant-token': first.token })).status).toBe(
      403,
    );
    expect((await r.vote(session.code, first.id, '5', { 'x-participant-token': again.token })).status).toBe(
      200,
    );
  });

  it('checks a voter’s next vote against what changed since its last one', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    await r.openStory(session);
    expect((await r.vote(session.code, bob.id, '5')).status).toBe(200);
    await patch(session.code, { status: 'paused' });
    expect((await r.vote(session.code, bob.id, '8')).body.error.code).toBe('session_not_active');
    await patch(session.code, { status: 'active' });
    expect((await r.vote(session.code, bob.id, '8')).status).toBe(200);
    await h.client.patch(`/sessions/${session.code}/participants/${bob.id}`, {
      body: { role: 'observer' },
      headers: asUser('ann'),
    });
    const observer = await r.vote(session.code, bob.id, '3');
    expect(observer.status).toBe(403);
    expect(observer.body.error.code).toBe('observer_cannot_vote');
  });

  it('counts a round from nothing after a reset, and without the vote of a voter who became an observer', async () => {
    const session = await r.createSession('ann');
    const [bob, cleo, dan] = [
      await r.join(session.code, 'Bob'),
      await r.join(session.code, 'Cleo'),
      await r.join(session.code, 'Dan'),
    ];
    const story = await r.openStory(session);
    await r.vote(session.code, bob.id, '5');
    await r.vote(session.code, cleo.id, '8');
    expect((await r.reset(session.id, story)).status).toBe(200);
    const stats = async (id: number, value: string) => (await r.vote(session.code, id, value)).body.stats;
    expect(await stats(bob.id, '3')).toEqual({ votes_cast: 1, total_participants: 3, all_voted: false });
    expect(await stats(cleo.id, '3')).toEqual({ votes_cast: 2, total_participants: 3, all_voted: false });
    await h.client.patch(`/sessions/${session.code}/participants/${cleo.id}`, {
      body: { role: 'observer' },
      headers: asUser('ann'),
    });
    // Bob's second vote counts one; Dan's completes the round of two voters.
    expect(await stats(bob.id, '5')).toEqual({ votes_cast: 1, total_participants: 2, all_voted: false });
    expect(await stats(dan.id, '5')).toEqual({ votes_cast: 2, total_participants: 2, all_voted: true });
  });

  it('counts a sealed round’s votes of counted voters only: one whose voter left after the reveal drops out', async () => {
    const { session, bob, story } = await r.votedRound('ann', ['5', '8']);
    const stats = async () =>
      (
        await h.client.get(`/internal/sessions/${session.id}/stories/${story.id}/stats`, {
          headers: asService(),
        })
      ).body.stats;
    expect(await stats()).toEqual({ votes_cast: 2, total_participants: 2, all_voted: true });
    expect((await r.seal(session.id, story.id)).status).toBe(200);
    await h.client.delete(`/sessions/${session.code}/participants/${bob.id}`, { headers: asUser('ann') });
    // The sealed round keeps Bob's vote (the reveal showed it), and no longer counts it.
    expect(await stats()).toEqual({ votes_cast: 1, total_participants: 1, all_voted: true });
  });

  it('takes away the votes of a removed participant and refuses its next vote', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    const cleo = await r.join(session.code, 'Cleo');
    await r.openStory(session);
    await r.vote(session.code, bob.id, '5');
    await h.client.delete(`/sessions/${session.code}/participants/${bob.id}`, { headers: asUser('ann') });
    expect((await r.vote(session.code, bob.id, '5')).status).toBe(404);
    expect((await r.vote(session.code, cleo.id, '3')).body.stats).toEqual({
      votes_cast: 1,
      total_participants: 1,
      all_voted: true,
    });
  });
});

describe('votes: secret until reveal', () => {
  it('never shows a vote value in a lookup, the participants, the list or the vote.cast events', async () => {
    const session = await r.createSession('ann', {
      voting_system: 'custom',
      custom_deck_values: ['kiwi7', 'zebra9'],
    });
    const bob = await r.join(session.code, 'Bob');
    const cleo = await r.join(session.code, 'Cleo');
    await r.openStory(session);
    const views = () =>
      Promise.all([
        h.client.get(`/sessions/${session.code}`).then((res) => res.text),
        h.client.get(`/sessions/${session.code}`, { headers: asUser('ann') }).then((res) => res.text),
        h.client.get(`/sessions/${session.code}/participants`).then((res) => res.text),
        h.client.get('/sessions', { headers: asUser('ann') }).then((res) => res.text),
      ]);
    const before = await views();

    await r.vote(session.code, bob.id, 'zebra9');
    const last = await r.vote(session.code, cleo.id, 'zebra9');
    expect(last.body.stats.all_voted).toBe(true);

    // What anyone can read is exactly what it was before the votes (the deck lists every card anyway).
    expect(await views()).toEqual(before);
    const mine = () => h.eventsOf('vote.cast').filter((e) => e.data.session_id === session.id);
    await until(async () => mine().length === 2);
    expect(
      mine()
        .map((e) => e.data.participant.name)
        .sort(),
    ).toEqual(['Bob', 'Cleo']);
    expect(mine()[1]!.data.stats).toEqual({ votes_cast: 2, total_participants: 2, all_voted: true });
    expect(mine().every((e) => e.data.auto_reveal === false)).toBe(true);
    const castTexts = h.rawEvents.filter((text) => text.includes('"vote.cast"') && text.includes(session.id));
    expect(castTexts).toHaveLength(2);
    for (const text of castTexts) expect(text).not.toMatch(/zebra9|kiwi7|"value"/);
  });
});

/** é as one character (U+00E9), and as e followed by a combining acute accent (U+0301). */
const COMPOSED = '\u00e9';
const DECOMPOSED = 'e\u0301';

describe('text as people type it', () => {
  it('takes a vote for a card typed in either Unicode spelling, and keeps it as the card', async () => {
    const session = await r.createSession('ann', {
      voting_system: 'custom',
      custom_deck_values: [`caf${DECOMPOSED}`, 'thé', 'XL'],
    });
    expect(session).toMatchObject({ custom_deck_values: [`caf${COMPOSED}`, 'th\u00e9', 'XL'] });
    const bob = await r.join(session.code, 'Bob');
    await r.openStory(session);
    for (const typed of [`caf${COMPOSED}`, `caf${DECOMPOSED}`]) {
      const res = await r.vote(session.code, bob.id, typed);
      expect(res.status).toBe(200);
      expect(res.body.vote.value).toBe(`caf${COMPOSED}`);
    }
    const other = await r.vote(session.code, bob.id, 'cafe');
    expect(other.status).toBe(422);
    expect(other.body.errors).toEqual({
      vote: [`must be one of the session's cards: caf${COMPOSED}, thé, XL`],
    });
  });

  it('refuses a deck whose cards are one card in two spellings', async () => {
    const res = await h.client.post('/sessions', {
      body: { name: 'Decks', voting_system: 'custom', custom_deck_values: [COMPOSED, DECOMPOSED] },
      headers: asUser('ann'),
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ custom_deck_values: ['cards must be unique'] });
  });

  it('counts a name in characters, as its documented maxLength does: 200 emoji, not 100', async () => {
    const emoji = (n: number) => '😀'.repeat(n);
    const created = await r.createSession('ann', { name: emoji(200) });
    expect(created).toMatchObject({ name: emoji(200) });
    const longer = await h.client.post('/sessions', { body: { name: emoji(201) }, headers: asUser('ann') });
    expect(longer.status).toBe(422);
    expect(longer.body.errors).toEqual({ name: ['Too big: expected string to have <=200 characters'] });
    // A card is up to 12 characters: 12 emoji.
    const deck = await r.createSession('ann', {
      voting_system: 'custom',
      custom_deck_values: [emoji(12), emoji(1)],
    });
    expect(deck).toMatchObject({ custom_deck_values: [emoji(12), emoji(1)] });
  });
});

describe('votes: a deck changed while they are cast', () => {
  it('is refused while a vote not revealed yet would not be a card of it, and the votes stay', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    const story = await r.openStory(session, 'Checkout');
    expect((await r.vote(session.code, bob.id, '5')).status).toBe(200);

    const refused = await patch(session.code, { voting_system: 'tshirt' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('votes_not_in_deck');
    expect(refused.body.message).toBe(
      'Votes already cast are not cards of the new deck: 5 (Checkout). Reveal those stories or clear their votes first.',
    );
    const kept = await h.client.get(`/sessions/${session.code}`, { headers: asUser('ann') });
    expect(kept.body.session.voting_system).toBe('fibonacci');
    // The vote is still there, and still counts.
    const sealed = await r.seal(session.id, story.id);
    expect(sealed.body.votes.map((v: { value: string }) => v.value)).toEqual(['5']);
    // Between rounds, any deck is taken.
    expect((await patch(session.code, { voting_system: 'tshirt' })).status).toBe(200);
  });

  it('takes added cards at once, and a narrower deck once the votes are cleared', async () => {
    const session = await r.createSession('ann', { voting_system: 'custom', custom_deck_values: ['S', 'M'] });
    const bob = await r.join(session.code, 'Bob');
    const story = await r.openStory(session);
    expect((await r.vote(session.code, bob.id, 'S')).status).toBe(200);
    const wider = await patch(session.code, { custom_deck_values: ['S', 'M', 'L'] });
    expect(wider.status).toBe(200);
    expect((await patch(session.code, { custom_deck_values: ['M', 'L'] })).status).toBe(409);
    expect((await r.reset(session.id, story)).status).toBe(200);
    const narrower = await patch(session.code, { custom_deck_values: ['M', 'L'] });
    expect(narrower.status).toBe(200);
    expect(narrower.body.session.custom_deck_values).toEqual(['M', 'L']);
    expect((await r.vote(session.code, bob.id, 'S')).status).toBe(422);
  });
});

describe('votes: the counts the room gets', () => {
  it('counts a round once for all of its vote.cast that a claim takes, and sends each with that count', async () => {
    const session = await r.createSession('ann');
    const [ann, bob] = [await r.join(session.code, 'Ann'), await r.join(session.code, 'Bob')];
    await r.join(session.code, 'Cleo');
    const story = await r.openStory(session);
    await r.vote(session.code, ann.id, '5');
    await r.vote(session.code, bob.id, '8');
    const outbox = async () =>
      (await h.runtime.db.fork().getConnection().execute('select count(*)::int as n from outbox'))[0]!.n;
    await until(async () => (await outbox()) === 0);
    // Five vote.cast of the round that each counted one vote, claimed in a transaction rolled back, on
    // a connection of the test's own (its function statistics hold this transaction's calls alone).
    await withOwnConnection(h.databaseUrl, async (db) => {
      await db.query("begin; set local track_functions = 'pl'");
      const stale = { votes_cast: 1, total_participants: 3, all_voted: false };
      for (let i = 0; i < 5; i++)
        await db.query("insert into outbox (id, type, payload) values ($1, 'vote.cast', $2::jsonb)", [
          randomUUID(),
          JSON.stringify({ data: { session_id: session.id, story_id: story.id, stats: stale } }),
        ]);
      const claimed = await db.query('select * from sessions_outbox_claim(100)');
      expect(claimed.rows.map((c) => c.payload.data.stats)).toEqual(
        Array(5).fill({ votes_cast: 2, total_participants: 3, all_voted: false }),
      );
      const counted = await db.query(
        "select calls::int from pg_stat_xact_user_functions where funcname = 'round_stats'",
      );
      expect(counted.rows).toEqual([{ calls: 1 }]);
      await db.query('rollback');
    });
  });

  it('counts both votes cast at the same moment in the later vote.cast, and in the room’s record of it', async () => {
    const session = await r.createSession('ann');
    const early = await r.join(session.code, 'Early');
    const bob = await r.join(session.code, 'Bob');
    const cleo = await r.join(session.code, 'Cleo');
    const recorded = async (eventId: string) => {
      const [row] = (await h.runtime.db
        .fork()
        .getConnection()
        .execute('select payload from room_events where event_id = ?', [eventId])) as Array<{
        payload: { stats: unknown };
      }>;
      return row?.payload.stats;
    };
    // Each statement counts what was committed when it began: two votes at once each miss the other's.
    for (let n = 1; n <= 10; n++) {
      const story = await r.openStory(session, `Story ${n}`, n);
      // A first vote has the stories unit confirm the round, so the two below race on the write alone.
      expect((await r.vote(session.code, early.id, '1')).status).toBe(200);
      const answers = await Promise.all([
        r.vote(session.code, bob.id, '5'),
        r.vote(session.code, cleo.id, '8'),
      ]);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      const casts = () => h.eventsOf('vote.cast').filter((e) => e.data.story_id === story.id);
      await until(async () => casts().length === 3);
      const last = casts().at(-1)!;
      const everyone = { votes_cast: 3, total_participants: 3, all_voted: true };
      expect(last.data.stats).toEqual(everyone);
      // The relay commits the record's new count once the event is out.
      await until(async () => isDeepStrictEqual(await recorded(last.id), everyone));
    }
  });
});
