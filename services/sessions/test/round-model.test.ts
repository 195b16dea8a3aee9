import fc from 'fast-check';
import { rooms } from './support/room.ts';
import { asService, asUser, startSessions, type SessionsHarness } from './support/sessions-harness.ts';

/**
 * Model-based test of a round (fast-check commands): joins, votes, observers, removals, seals and
 * resets in any order, each answer checked against a model of what the room should hold.
 */
let h: SessionsHarness;
let r: ReturnType<typeof rooms>;
beforeAll(async () => {
  h = await startSessions();
  r = rooms(h);
});
afterAll(() => h.stop());

interface Person {
  id: number;
  role: 'participant' | 'observer';
  removed: boolean;
}
interface Model {
  people: Person[];
  votes: Map<number, string>;
  sealed: boolean;
}
interface Real {
  code: string;
  sessionId: string;
  story: { id: string; title: string; position: number };
}
type Command = fc.AsyncCommand<Model, Real>;

const counted = (m: Model) => m.people.filter((p) => p.role !== 'observer' && !p.removed);
const stats = (m: Model) => {
  const voters = counted(m);
  const cast = voters.filter((p) => m.votes.has(p.id)).length;
  return {
    votes_cast: cast,
    total_participants: voters.length,
    all_voted: voters.length > 0 && cast >= voters.length,
  };
};
const pick = (m: Model, who: number) => m.people[who % m.people.length]!;
const hasPeople = (m: Readonly<Model>) => m.people.length > 0;

class Join implements Command {
  readonly observer: boolean;
  constructor(observer: boolean) {
    this.observer = observer;
  }
  check = () => true;
  async run(m: Model, real: Real) {
    const p = await r.join(real.code, `P${m.people.length}`, this.observer ? { role: 'observer' } : {});
    m.people.push({ id: p.id, role: this.observer ? 'observer' : 'participant', removed: false });
  }
  toString = () => `join(${this.observer ? 'observer' : 'participant'})`;
}

class Vote implements Command {
  readonly who: number;
  readonly card: string;
  constructor(who: number, card: string) {
    this.who = who;
    this.card = card;
  }
  check = hasPeople;
  async run(m: Model, real: Real) {
    const p = pick(m, this.who);
    const res = await r.vote(real.code, p.id, this.card);
    if (p.removed) return expect(res.status).toBe(404);
    if (p.role === 'observer') return expect(res.status).toBe(403);
    if (m.sealed) return expect([res.status, res.body.error.code]).toEqual([409, 'no_open_story']);
    m.votes.set(p.id, this.card);
    expect([res.status, res.body.stats]).toEqual([200, stats(m)]);
  }
  toString = () => `vote(${this.who}, ${this.card})`;
}

/** The reveal's seal (no story is current after it, until a reset opens this one again). */
class Seal implements Command {
  check = () => true;
  async run(m: Model, real: Real) {
    const res = await r.seal(real.sessionId, real.story.id);
    expect(res.status).toBe(200);
    m.sealed = true;
    const got = new Map(
      res.body.votes.map((v: { participant: { id: number }; value: string }) => [v.participant.id, v.value]),
    );
    expect(got).toEqual(m.votes);
    const counts = await h.client.get(`/internal/sessions/${real.sessionId}/stories/${real.story.id}/stats`, {
      headers: asService(),
    });
    expect(counts.body.stats).toEqual(stats(m));
  }
  toString = () => 'seal';
}

class Reset implements Command {
  check = () => true;
  async run(m: Model, real: Real) {
    const res = await r.reset(real.sessionId, real.story);
    expect(res.status).toBe(200);
    m.votes.clear();
    m.sealed = false;
  }
  toString = () => 'reset';
}

/** The owner removes someone, or makes them an observer: their votes go unless the round is sealed. */
class Manage implements Command {
  readonly who: number;
  readonly action: 'remove' | 'observe';
  constructor(who: number, action: 'remove' | 'observe') {
    this.who = who;
    this.action = action;
  }
  check = hasPeople;
  async run(m: Model, real: Real) {
    const p = pick(m, this.who);
    const path = `/sessions/${real.code}/participants/${p.id}`;
    const res =
      this.action === 'remove'
        ? await h.client.delete(path, { headers: asUser('owner') })
        : await h.client.patch(path, { body: { role: 'observer' }, headers: asUser('owner') });
    if (p.removed) return expect(res.status).toBe(404);
    expect(res.status).toBe(200);
    if (this.action === 'remove') p.removed = true;
    else p.role = 'observer';
    if (!m.sealed) m.votes.delete(p.id);
  }
  toString = () => `${this.action}(${this.who})`;
}

const commands = [
  fc.boolean().map((observer) => new Join(observer)),
  fc.boolean().map((observer) => new Join(observer)),
  fc.tuple(fc.nat(30), fc.constantFrom('1', '3', '5', '?')).map(([who, card]) => new Vote(who, card)),
  fc.tuple(fc.nat(30), fc.constantFrom('1', '3', '5', '?')).map(([who, card]) => new Vote(who, card)),
  fc.constant(new Seal()),
  fc.constant(new Reset()),
  fc
    .tuple(fc.nat(30), fc.constantFrom('remove' as const, 'observe' as const))
    .map(([w, a]) => new Manage(w, a)),
];

describe('rounds: model', () => {
  it('answers every sequence of joins, votes, seals, resets and removals as the model says', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 30 }), async (cmds) => {
        const session = await r.createSession('owner');
        const story = await r.openStory(session);
        const real = { code: session.code, sessionId: session.id, story };
        await fc.asyncModelRun(
          () => ({ model: { people: [], votes: new Map(), sealed: false }, real }),
          cmds,
        );
      }),
      { numRuns: 100 },
    );
  }, 120_000);
});
