import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { until } from '@pp/testing';
import { rooms } from './support/room.ts';
import { asService, asUser, startSessions, type SessionsHarness } from './support/sessions-harness.ts';

let h: SessionsHarness;
let r: ReturnType<typeof rooms>;
beforeAll(async () => {
  h = await startSessions();
  r = rooms(h);
});
afterAll(() => h.stop());

const summary = (id: string, title: string, position: number) => ({ id, title, position });

/** Ann's session with one story open, and Bob's vote of 5 on it. */
async function bobVoted() {
  const session = await r.createSession('ann');
  const bob = await r.join(session.code, 'Bob');
  const story = await r.openStory(session);
  await r.vote(session.code, bob.id, '5');
  return { session, bob, story };
}

describe('rounds: the current story', () => {
  it('is the one the last command names, at once, with its title and position', async () => {
    const session = await r.createSession('ann');
    expect(await r.currentStory(session.code)).toBeNull();
    const a = summary(randomUUID(), 'A', 1);
    const res = await r.round(session.id, { current: a });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      applied: true,
      votes: null,
      session: { id: session.id, status: 'active' },
    });
    expect(await r.currentStory(session.code)).toEqual({ ...a, status: 'voting' });

    await r.round(session.id, { current: { ...a, title: 'A, renamed', position: 2 } });
    expect(await r.currentStory(session.code)).toEqual({
      ...a,
      title: 'A, renamed',
      position: 2,
      status: 'voting',
    });
    await r.round(session.id, { current: null });
    expect(await r.currentStory(session.code)).toBeNull();
  });

  it('takes the votes; a story made current again still has its earlier votes', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    const a = summary(randomUUID(), 'A', 1);
    const b = summary(randomUUID(), 'B', 2);
    await r.round(session.id, { current: a });
    expect((await r.vote(session.code, bob.id, '5')).body.vote.story_id).toBe(a.id);
    await r.round(session.id, { current: b });
    const onB = await r.vote(session.code, bob.id, '8');
    expect(onB.body).toMatchObject({ vote: { story_id: b.id }, stats: { votes_cast: 1 } });
    await r.round(session.id, { current: a });
    const sealed = await r.seal(session.id, a.id);
    expect(sealed.body.votes).toEqual([{ participant: { id: bob.id, name: 'Bob' }, value: '5' }]);
  });

  it('changes nothing for a command whose version is not above the last applied one', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    const a = summary(randomUUID(), 'A', 1);
    const b = summary(randomUUID(), 'B', 2);
    const late = { version: 1, kind: 'change', current: a, reset: [a.id] };
    const first = await h.client.put(`/internal/sessions/${session.id}/round`, {
      body: late,
      headers: asService(),
    });
    expect(first.body.applied).toBe(true);
    await r.vote(session.code, bob.id, '3');
    // The same command again (a retry) and an older one: neither resets the votes nor moves the round.
    for (const body of [late, { ...late, version: 1, current: b }]) {
      const again = await h.client.put(`/internal/sessions/${session.id}/round`, {
        body,
        headers: asService(),
      });
      expect(again.status).toBe(200);
      expect(again.body.applied).toBe(false);
    }
    expect((await r.currentStory(session.code)).id).toBe(a.id);
    expect((await r.seal(session.id, a.id)).body.votes).toHaveLength(1);
  });
});

/**
 * Holds a transaction of its own open (what a vote or another round command in flight holds), runs
 * `statements` in it, sends the command, checks that the command waits for it, commits, and
 * resolves with the command's answer.
 */
async function whileInFlight<T>(
  statements: Array<[query: string, params: unknown[]]>,
  command: () => Promise<T>,
): Promise<T> {
  let answered = false;
  const { pending } = await h.runtime.db.fork().transactional(async (tx) => {
    for (const [query, params] of statements)
      await tx.getConnection().execute(query, params, 'run', tx.getTransactionContext());
    const pending = command().finally(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false); // the command waits for what is in flight
    return { pending }; // not awaited here: what is in flight commits first
  });
  return pending;
}
const insertVote = (storyId: string, participantId: number, value: string): [string, unknown[]] => [
  `insert into votes (story_id, participant_id, value, created_at, updated_at) values (?, ?, ?, now(), now())`,
  [storyId, participantId, value],
];

describe('rounds: seal', () => {
  it('hands over every vote with its voter and refuses votes after it with 409 story_already_revealed', async () => {
    const { session, bob, cleo, story } = await r.votedRound('ann', ['5', '8']);
    const sealed = await r.seal(session.id, story.id);
    expect(sealed.status).toBe(200);
    expect(sealed.body.votes).toEqual([
      { participant: { id: bob.id, name: 'Bob' }, value: '5' },
      { participant: { id: cleo.id, name: 'Cleo' }, value: '8' },
    ]);
    expect(await r.currentStory(session.code)).toBeNull();
    const late = await r.vote(session.code, bob.id, '13');
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('no_open_story');
    const again = await r.seal(session.id, story.id);
    expect(again.body).toMatchObject({ applied: true, votes: sealed.body.votes });
  });

  it('hands over a vote in flight on the round, committed while the seal waited for it', async () => {
    const { session, bob, story } = await bobVoted();
    const cleo = await r.join(session.code, 'Cleo');
    // What a vote's statement does: share-lock the open round, then write the vote.
    const sealed = await whileInFlight(
      [['select id from rounds where id = ? for share', [story.id]], insertVote(story.id, cleo.id, '8')],
      () => r.seal(session.id, story.id),
    );
    expect(sealed.status).toBe(200);
    expect(sealed.body).toMatchObject({ applied: true });
    expect(sealed.body.votes).toEqual([
      { participant: { id: bob.id, name: 'Bob' }, value: '5' },
      { participant: { id: cleo.id, name: 'Cleo' }, value: '8' },
    ]);
  });

  it('seals and moves on in one command: the next story is current, the sealed one refuses votes', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    const a = await r.openStory(session, 'A', 1);
    const b = summary(randomUUID(), 'B', 2);
    await r.vote(session.code, bob.id, '5');
    const res = await r.round(session.id, { seal: { story_id: a.id, when: 'always' }, current: b });
    expect(res.body.votes).toHaveLength(1);
    expect((await r.currentStory(session.code)).id).toBe(b.id);
    expect((await r.vote(session.code, bob.id, '8')).body.vote.story_id).toBe(b.id);
  });

  it('seals a story the session has no round for yet, with no votes', async () => {
    const session = await r.createSession('ann');
    const res = await r.seal(session.id, randomUUID());
    expect(res.status).toBe(200);
    expect(res.body.votes).toEqual([]);
  });

  it('orders every vote racing a seal: the last accepted vote is the sealed one, and every later one is refused', async () => {
    const cards = ['1', '2', '3', '5'];
    const runRound = async () => {
      const session = await r.createSession('ann');
      const voters = await Promise.all(Array.from({ length: 5 }, (_, i) => r.join(session.code, `P${i}`)));
      const story = await r.openStory(session);
      // A first vote, by someone else, has the stories unit confirm the round before the race.
      const first = await r.vote(session.code, (await r.join(session.code, 'Early')).id, '1');
      expect(first.status).toBe(200);
      // Each voter keeps changing its vote until the seal refuses it.
      let racing!: () => void;
      const firstRacingVote = new Promise<void>((resolve) => (racing = resolve));
      const voteUntilRefused = async (id: number) => {
        let lastAccepted: string | undefined;
        for (let n = 0; n < 500; n++) {
          const value = cards[n % cards.length]!;
          const res = await r.vote(session.code, id, value);
          if (res.status !== 200) return { lastAccepted, refusal: res.body.error.code };
          lastAccepted = value;
          racing();
        }
        throw new Error('never refused');
      };
      // The seal comes while votes are under way: 15 ms after the first racing vote was taken (on a busy
      // machine a fixed delay from the start could seal before any).
      const seal = firstRacingVote
        .then(() => new Promise((resolve) => setTimeout(resolve, 15)))
        .then(() => r.seal(session.id, story.id));
      const [sealed, ...outcomes] = await Promise.all([seal, ...voters.map((v) => voteUntilRefused(v.id))]);
      return { voters, sealed, outcomes };
    };
    const results = await Promise.all(Array.from({ length: 10 }, runRound));
    let accepted = 0;
    for (const { voters, sealed, outcomes } of results) {
      const sealedValues = new Map(
        sealed.body.votes.map((v: { participant: { id: number }; value: string }) => [
          v.participant.id,
          v.value,
        ]),
      );
      outcomes.forEach((outcome, i) => {
        expect(['story_already_revealed', 'no_open_story']).toContain(outcome.refusal);
        expect(sealedValues.get(voters[i]!.id)).toBe(outcome.lastAccepted);
        if (outcome.lastAccepted) accepted++;
      });
    }
    expect(accepted).toBeGreaterThan(0);
  });
});

describe('rounds: automatic seals', () => {
  it('seals on all_voted only while the session auto-reveals and every voting participant has voted', async () => {
    const { session, story } = await r.votedRound('ann', ['5', '5']);
    const off = await r.seal(session.id, story.id, 'all_voted');
    expect([off.status, off.body.error.code]).toEqual([409, 'reveal_not_due']);

    await h.client.patch(`/sessions/${session.code}`, {
      body: { auto_reveal: true },
      headers: asUser('ann'),
    });
    const dee = await r.join(session.code, 'Dee');
    const waiting = await r.seal(session.id, story.id, 'all_voted');
    expect([waiting.status, waiting.body.error.code]).toEqual([409, 'reveal_not_due']);
    expect((await r.currentStory(session.code)).id).toBe(story.id);

    // The last vote asks the stories unit to reveal; this one cannot be reached, so the vote answers
    // as it is and the round waits for the reveal the events will bring.
    const last = await r.vote(session.code, dee.id, '8');
    expect([last.status, last.body.stats.all_voted]).toEqual([200, true]);
    expect((await r.currentStory(session.code)).id).toBe(story.id);
    const due = await r.seal(session.id, story.id, 'all_voted');
    expect(due.status).toBe(200);
    expect(due.body.votes).toHaveLength(3);
  });

  it('answers the last vote and the activity without waiting long on a stories unit that never answers', async () => {
    const silent = createServer(() => undefined); // takes requests, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const slow = await startSessions({}, { STORIES_URL: url, STORIES_TIMEOUT_MS: '10000' });
    try {
      const sr = rooms(slow);
      const session = await sr.createSession('ann', { auto_reveal: true });
      const bob = await sr.join(session.code, 'Bob');
      // A round the stories unit restated (this one could not confirm a change's).
      await sr.round(session.id, { kind: 'resync', current: { id: randomUUID(), title: 'A', position: 1 } });
      const started = Date.now();
      const last = await sr.vote(session.code, bob.id, '5');
      expect([last.status, last.body.stats.all_voted]).toEqual([200, true]);
      expect(Date.now() - started).toBeLessThan(5_000);
      // The activity answers with the room's own history.
      const asked = Date.now();
      const activity = await slow.client.get(`/sessions/${session.code}/activity`, {
        headers: asUser('ann'),
      });
      expect(activity.status).toBe(200);
      expect(activity.body.activity.map((e: { type: string }) => e.type)).toEqual(
        expect.arrayContaining(['participant.joined', 'vote.cast']),
      );
      expect(Date.now() - asked).toBeLessThan(5_000);
    } finally {
      await slow.stop();
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('seals on deadline_passed only once the vote-by deadline is on and past', async () => {
    let now = new Date();
    const clocked = await startSessions({ now: () => now });
    try {
      const cr = rooms(clocked);
      const session = await cr.createSession('ann', {
        voteby_enabled: true,
        vote_by_at: new Date(now.getTime() + 60_000).toISOString(),
      });
      const story = await cr.openStory(session);
      const early = await cr.seal(session.id, story.id, 'deadline_passed');
      expect([early.status, early.body.error.code]).toEqual([409, 'reveal_not_due']);
      now = new Date(now.getTime() + 61_000);
      expect((await cr.seal(session.id, story.id, 'deadline_passed')).status).toBe(200);
    } finally {
      await clocked.stop();
    }
  });
});

describe('rounds: reset and forget', () => {
  it('a reset deletes the votes and opens the round again (a re-vote after a reveal)', async () => {
    const { session, bob, story } = await bobVoted();
    await r.seal(session.id, story.id);
    expect((await r.reset(session.id, story)).status).toBe(200);
    const revote = await r.vote(session.code, bob.id, '8');
    expect(revote.status).toBe(200);
    expect(revote.body.stats.votes_cast).toBe(1);
    expect((await r.seal(session.id, story.id)).body.votes.map((v: { value: string }) => v.value)).toEqual([
      '8',
    ]);
  });

  it('a reset of the open round (no reveal before) deletes its votes too, and later votes count', async () => {
    const session = await r.createSession('ann');
    const [bob, cy] = [await r.join(session.code, 'Bob'), await r.join(session.code, 'Cy')];
    const story = await r.openStory(session);
    await r.vote(session.code, bob.id, '5');
    await r.vote(session.code, cy.id, '3');
    const reset = await r.reset(session.id, story);
    expect(reset.body).toMatchObject({ applied: true, votes: null });
    expect((await r.currentStory(session.code)).id).toBe(story.id);
    const revote = await r.vote(session.code, cy.id, '8');
    expect(revote.body.stats.votes_cast).toBe(1);
    expect((await r.seal(session.id, story.id)).body.votes).toEqual([
      { participant: { id: cy.id, name: 'Cy' }, value: '8' },
    ]);
  });

  const votesLeft = (storyId: string) =>
    h.runtime.db
      .fork()
      .getConnection()
      .execute('select count(*)::int as n from votes where story_id = ?', [storyId]);
  it('a reset of the open round deletes a vote in flight on it (committed while the reset waited)', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    const story = await r.openStory(session);
    // What a vote's statement does: share-lock the open round, then write the vote.
    const reset = await whileInFlight(
      [['select id from rounds where id = ? for share', [story.id]], insertVote(story.id, bob.id, '5')],
      () => r.reset(session.id, story),
    );
    expect(reset.status).toBe(200);
    expect(await votesLeft(story.id)).toEqual([{ n: 0 }]);
  });

  it('a re-vote that waited for another command (which reopened the round, and a vote came) deletes that vote too', async () => {
    const { session, bob, story } = await bobVoted();
    await r.seal(session.id, story.id);
    // What another round command and a vote after it do: the session's row locked with a newer round
    // version, the round open again, a vote on it.
    const revote = await whileInFlight(
      [
        ['update sessions set round_version = round_version + 1 where id = ?', [session.id]],
        [`update rounds set sealed = false, sealed_at = null, status = 'voting' where id = ?`, [story.id]],
        ['delete from votes where story_id = ?', [story.id]],
        insertVote(story.id, bob.id, '8'),
      ],
      () =>
        r.round(session.id, {
          version: 2_000_000_000,
          reset: [story.id],
          current: { id: story.id, title: story.title, position: story.position },
        }),
    );
    expect(revote.body).toMatchObject({ applied: true });
    expect(await votesLeft(story.id)).toEqual([{ n: 0 }]);
  });

  it('a deleted story takes its round and votes with it', async () => {
    const { session, story } = await bobVoted();
    expect((await r.round(session.id, { forget: [story.id], current: null })).status).toBe(200);
    expect(await r.currentStory(session.code)).toBeNull();
    expect(await votesLeft(story.id)).toEqual([{ n: 0 }]);
  });
});

describe('rounds: votes wait for the stories unit to have committed the change', () => {
  const votesOn = async (storyId: string) =>
    (await h.runtime.db
      .fork()
      .getConnection()
      .execute('select count(*)::int as n from votes where story_id = ?', [storyId])) as Array<{ n: number }>;

  it('takes no vote on a story a change opened until the stories unit shows it current; a resync that leaves it out leaves no vote behind', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    // The change opened the round here, and never committed there (its database went away).
    h.storiesCommitted.set(session.id, null);
    const story = await r.openStory(session);
    expect((await r.currentStory(session.code)).id).toBe(story.id);
    const refused = await r.vote(session.code, bob.id, '5');
    expect([refused.status, refused.body.error.code]).toEqual([503, 'round_not_confirmed']);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await votesOn(story.id)).toEqual([{ n: 0 }]);

    // The round sync states the round as the stories unit has it: no story.
    expect((await r.round(session.id, { kind: 'resync', current: null })).status).toBe(200);
    const none = await r.vote(session.code, bob.id, '5');
    expect([none.status, none.body.error.code]).toEqual([409, 'no_open_story']);
    expect(await votesOn(story.id)).toEqual([{ n: 0 }]);
  });

  it('takes the votes once the stories unit shows the story current, and keeps taking them while it stays open', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    const cleo = await r.join(session.code, 'Cleo');
    h.storiesCommitted.set(session.id, null);
    const story = await r.openStory(session);
    expect((await r.vote(session.code, bob.id, '5')).status).toBe(503);

    // The change is committed there now.
    h.storiesCommitted.set(session.id, story.id);
    const taken = await r.vote(session.code, bob.id, '5');
    expect([taken.status, taken.body.vote.story_id]).toEqual([200, story.id]);
    // Confirmed once for all: a later change that keeps it current (a rename) does not ask again.
    h.storiesCommitted.set(session.id, 'unreachable');
    await r.round(session.id, { current: { id: story.id, title: 'Renamed', position: 1 } });
    expect((await r.vote(session.code, cleo.id, '8')).status).toBe(200);
    expect(await votesOn(story.id)).toEqual([{ n: 2 }]);
  });

  it('takes votes without asking once its live feed shows the stories unit committed the change, or a later one', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    h.storiesCommitted.set(session.id, 'unreachable');
    const a = await r.openStory(session, 'A', 1);
    const opened = (await r.round(session.id, { current: summary(a.id, 'A', 1) })).status;
    expect(opened).toBe(200);
    /** An event of a change of the stories, published after its commit with its round version. */
    const committed = (version: number) =>
      h.publish(
        'story.updated',
        {
          session_id: session.id,
          session_code: session.code,
          story: { id: a.id, title: 'A', status: 'voting', position: 1 },
          changed: ['title'],
        },
        undefined,
        version,
      );
    const [row] = (await h.runtime.db
      .fork()
      .getConnection()
      .execute('select unconfirmed_version as v from rounds where id = ?', [a.id])) as Array<{ v: number }>;
    const version = row!.v;
    // An older change's event: the round was opened after it. Its vote waits a moment, then asks the
    // stories unit, which cannot answer: refused, nothing taken.
    await committed(version - 1);
    expect((await r.vote(session.code, bob.id, '5')).status).toBe(503);
    expect(await votesOn(a.id)).toEqual([{ n: 0 }]);

    // The change's own event, or a later one's: taken, without asking (the stories unit is unreachable).
    await committed(version);
    const taken = await until(async () => {
      const res = await r.vote(session.code, bob.id, '5');
      return res.status === 200 && res;
    });
    expect(taken.body.vote.story_id).toBe(a.id);
    await r.round(session.id, { current: summary(a.id, 'A', 1) });
    expect((await r.vote(session.code, bob.id, '8')).status).toBe(200);
  });

  it('asks again when a change opens the round anew, and never for a round a resync stated', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    const a = await r.openStory(session, 'A', 1);
    expect((await r.vote(session.code, bob.id, '5')).status).toBe(200);
    const b = summary(randomUUID(), 'B', 2);
    // B made current by a change not committed there (A still current there), then A again.
    h.storiesCommitted.set(session.id, a.id);
    await r.round(session.id, { current: b });
    expect((await r.vote(session.code, bob.id, '3')).body.error.code).toBe('round_not_confirmed');
    await r.round(session.id, { current: summary(a.id, 'A', 1) });
    h.storiesCommitted.set(session.id, b.id);
    expect((await r.vote(session.code, bob.id, '3')).body.error.code).toBe('round_not_confirmed');
    // A resync states what the stories unit committed: its round takes votes without asking.
    h.storiesCommitted.set(session.id, null);
    await r.round(session.id, { kind: 'resync', current: b });
    const onB = await r.vote(session.code, bob.id, '8');
    expect([onB.status, onB.body.vote.story_id]).toEqual([200, b.id]);
    expect(await votesOn(b.id)).toEqual([{ n: 1 }]);
    expect(await votesOn(a.id)).toEqual([{ n: 1 }]);
  });
});

describe('rounds: refusals', () => {
  it('refuses a change of an archived session with 409 session_archived, but takes a resync', async () => {
    const session = await r.createSession('ann');
    await h.client.patch(`/sessions/${session.code}`, {
      body: { status: 'archived' },
      headers: asUser('ann'),
    });
    const story = summary(randomUUID(), 'A', 1);
    const refused = await r.round(session.id, { current: story });
    expect([refused.status, refused.body.error.code]).toEqual([409, 'session_archived']);
    expect(await r.currentStory(session.code)).toBeNull();
    const resync = await r.round(session.id, { kind: 'resync', current: story });
    expect(resync.status).toBe(200);
    expect((await r.currentStory(session.code)).id).toBe(story.id);
  });

  it('answers 404 for an unknown session, 403 to a user, and 422 for a command it cannot read', async () => {
    const session = await r.createSession('ann');
    expect((await r.round(randomUUID(), {})).status).toBe(404);
    expect((await r.round(session.id, {}, asUser('ann'))).status).toBe(403);
    const bad = await h.client.put(`/internal/sessions/${session.id}/round`, {
      body: { version: 0, kind: 'change', current: null, surprise: true },
      headers: asService(),
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['_body', 'version']);
  });

  it('does not let a story of another session become this one’s round', async () => {
    const session = await r.createSession('ann');
    const other = await r.createSession('ann');
    const story = await r.openStory(other);
    const crossed = await r.seal(session.id, story.id);
    expect([crossed.status, crossed.body.error.code]).toEqual([404, 'story_not_found']);
    const reset = await r.reset(session.id, story);
    expect([reset.status, reset.body.error.code]).toEqual([404, 'story_not_found']);
    // the other session's round is as it was: open, with its votes
    expect((await r.currentStory(other.code)).id).toBe(story.id);
  });

  it('answers a retried seal (the same version again) with the sealed votes, changing nothing', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    const story = await r.openStory(session);
    await r.vote(session.code, bob.id, '8');
    const command = { version: 1_000_000 + Math.floor(Math.random() * 1_000_000), kind: 'change' as const };
    const body = { ...command, current: null, reset: [], seal: { story_id: story.id, when: 'always' } };
    const first = await h.client.put(`/internal/sessions/${session.id}/round`, {
      body,
      headers: asService(),
    });
    const again = await h.client.put(`/internal/sessions/${session.id}/round`, {
      body,
      headers: asService(),
    });
    expect([first.body.applied, again.body.applied]).toEqual([true, false]);
    expect(again.body.votes).toEqual(first.body.votes);
    expect(again.body.votes).toEqual([{ participant: { id: bob.id, name: 'Bob' }, value: '8' }]);
  });
});

describe('rounds: stats', () => {
  it('tells another unit the counts as committed, and refuses a user', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    await r.join(session.code, 'Cleo');
    const story = await r.openStory(session);
    await r.vote(session.code, bob.id, '5');
    const path = `/internal/sessions/${session.id}/stories/${story.id}/stats`;
    const res = await h.client.get(path, { headers: asService() });
    expect(res.status).toBe(200);
    expect(res.body.stats).toEqual({ votes_cast: 1, total_participants: 2, all_voted: false });
    expect((await h.client.get(path, { headers: asUser('ann') })).status).toBe(403);
  });
});
