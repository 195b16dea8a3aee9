/**
 * The fault run's checker on small hand-made ledgers: a clean run passes, and each kind of broken
 * promise (a lost vote, a reveal undone, a half-made change, a duplicated webhook, a stream out of
 * order or with a hole, a hang, a 401 for a valid token, a slow recovery, a full outbox) is reported.
 */
import { check } from './checker.ts';
import type { Operation } from './ledger.ts';
import type { ClientView, Delivery, Observations, RoomEvent } from './observations.ts';

const S1 = '11111111-1111-4111-8111-111111111111';
const at = (t: number) => ({ startedAt: t, endedAt: t + 10, enveloped: false, validToken: false });
const vote = (
  t: number,
  participantId: number,
  value: string,
  outcome: Operation['outcome'] = 'ok',
): Operation => ({
  kind: 'vote',
  room: 'ROOM01',
  outcome,
  status: outcome === 'ok' ? 200 : outcome === 'hung' ? 0 : 503,
  ...at(t),
  enveloped: outcome === 'refused',
  participantId,
  value,
  storyId: outcome === 'ok' ? S1 : undefined,
});
const reveal: Operation = {
  kind: 'reveal',
  room: 'ROOM01',
  outcome: 'ok',
  status: 200,
  ...at(500),
  validToken: true,
  storyId: S1,
  finalEstimate: '5',
  votes: [
    { participantId: 1, value: '5' },
    { participantId: 2, value: '3' },
  ],
};
const history: RoomEvent[] = [
  { id: 'e1', type: 'participant.joined', data: { participant: { id: 1 } } },
  { id: 'e2', type: 'story.created', data: { story: { id: S1 } } },
  { id: 'e3', type: 'vote.cast', data: { story_id: S1, participant: { id: 1 } } },
  { id: 'e4', type: 'vote.cast', data: { story_id: S1, participant: { id: 2 } } },
  { id: 'e5', type: 'vote.cast', data: { story_id: S1, participant: { id: 1 } } },
  { id: 'e6', type: 'story.revealed', data: { story: { id: S1 } } },
];
const client = (events: RoomEvent[]): ClientView => ({ room: 'ROOM01', name: 'c0', events, reconnects: 1 });
const delivery = (webhookId: string): Delivery => ({ webhookId, type: 'story.revealed', storyId: S1 });

function observations(change: Partial<Observations> = {}): Observations {
  return {
    operations: [vote(100, 1, '8'), vote(200, 2, '3'), vote(300, 1, '5'), reveal],
    rooms: [
      {
        code: 'ROOM01',
        history,
        stories: [{ id: S1, status: 'revealed', finalEstimate: '5', votes: reveal.votes! }],
      },
    ],
    clients: [client(history), client(history.slice(2))],
    // A retry of the same delivery reuses its webhook-id: one reveal, delivered once in effect.
    deliveries: [delivery('msg_1'), delivery('msg_1')],
    outboxes: { sessions: 0, stories: 0 },
    faults: [
      {
        name: 'NATS stopped',
        injectedAt: 50,
        restoredAt: 90,
        notes: [],
        outage: true,
        notReady: ['status 503 (down: sessions, nats)'],
      },
    ],
    upstreamTimeoutMs: 15_000,
    recoveryLimitMs: 10_000,
    ...change,
  };
}

const kindsOf = (o: Observations) => check(o).findings.map((f) => f.kind);

describe('fault run checker', () => {
  it('passes a run whose every promise holds, and counts the requests', () => {
    const verdict = check(observations());
    expect(verdict.findings).toEqual([]);
    expect(verdict.passed).toBe(true);
    expect(verdict.requests).toEqual({ sent: 4, ok: 4, rejected: 0, refusedFast: 0, hung: 0 });
    // Written again: a vote (ended at 110) and a story change (the reveal, ended at 510).
    expect(verdict.faults[0]!.firstWriteAfterReturnMs).toBe(510 - 90);
  });

  it('reports a vote answered 2xx that is not among its story votes after the reveal', () => {
    const lost = observations({ operations: [...observations().operations, vote(400, 3, '8')] });
    expect(kindsOf(lost)).toContain('lost-write');
    expect(check(lost).counts['lost-write']).toBe(1);
  });

  it('reports a vote kept with an earlier value than its last 2xx, but allows an unanswered later one', () => {
    const ops = observations().operations;
    const stale = observations({ operations: [...ops.slice(0, 3), vote(350, 2, '8'), reveal] });
    expect(kindsOf(stale)).toEqual(['lost-write']);
    const votes = [
      { participantId: 1, value: '13' },
      { participantId: 2, value: '3' },
    ];
    const unknown = observations({
      operations: [...ops.slice(0, 3), vote(350, 1, '13', 'hung'), { ...reveal, votes }],
    });
    const kept = {
      ...unknown.rooms[0]!,
      stories: [{ id: S1, status: 'revealed', finalEstimate: '5', votes }],
    };
    expect(kindsOf({ ...unknown, rooms: [kept] })).toEqual(['hang']);
  });

  it('reports a reveal answered 2xx whose story is no longer revealed with that estimate', () => {
    const room = {
      ...observations().rooms[0]!,
      stories: [{ id: S1, status: 'revealed', finalEstimate: '3', votes: reveal.votes! }],
    };
    expect(kindsOf(observations({ rooms: [room] }))).toEqual(['lost-write']);
  });

  it('reports a change kept without its event (half made)', () => {
    const room = { ...observations().rooms[0]!, history: history.filter((e) => e.id !== 'e6') };
    expect(kindsOf(observations({ rooms: [room], clients: [] }))).toContain('half-change');
  });

  it('reports an event announcing a change the final state lacks (a reveal, a story, a vote)', () => {
    const [story] = observations().rooms[0]!.stories;
    const unrevealed = {
      ...observations().rooms[0]!,
      stories: [{ ...story!, status: 'voting', votes: null }],
    };
    expect(kindsOf(observations({ rooms: [unrevealed], operations: [], faults: [] }))).toEqual([
      'half-change',
    ]);
    const gone = { ...observations().rooms[0]!, stories: [] };
    expect(kindsOf(observations({ rooms: [gone], operations: [], faults: [] }))).toEqual([
      'half-change',
      'half-change',
    ]);
    const votes = [{ participantId: 2, value: '3' }];
    const lacking = { ...observations().rooms[0]!, stories: [{ ...story!, votes }] };
    expect(kindsOf(observations({ rooms: [lacking], operations: [], faults: [] }))).toEqual([
      'half-change',
      'half-change',
    ]);
  });

  it('reports a reveal that reached the webhook under two ids, and one that never reached it', () => {
    expect(kindsOf(observations({ deliveries: [delivery('msg_1'), delivery('msg_2')] }))).toEqual([
      'duplicate-event',
    ]);
    expect(kindsOf(observations({ deliveries: [] }))).toEqual(['lost-event']);
  });

  it('reports a live client that got an event twice, missed one, or got them out of order', () => {
    const [e1, e2, e3, e4, e5, e6] = history;
    expect(kindsOf(observations({ clients: [client([e1!, e2!, e3!, e4!, e4!, e5!, e6!])] }))).toEqual([
      'duplicate-event',
    ]);
    expect(kindsOf(observations({ clients: [client([e1!, e2!, e3!, e5!, e6!])] }))).toEqual(['lost-event']);
    expect(kindsOf(observations({ clients: [client([e1!, e2!, e4!, e3!, e5!, e6!])] }))).toEqual([
      'out-of-order',
    ]);
  });

  it('reports a hang, a 401 for a valid token, a 503 without the envelope, a slow recovery, an outage /readyz did not name and a full outbox', () => {
    const base = observations();
    const hung = { ...vote(600, 1, '5', 'hung') };
    const unauthorized: Operation = { ...reveal, outcome: 'rejected', status: 401, storyId: S1 };
    const bare: Operation = { ...vote(700, 2, '5', 'refused'), enveloped: false };
    const verdict = check({
      ...base,
      operations: [...base.operations, hung, unauthorized, bare],
      faults: [
        { name: 'PostgreSQL stopped', injectedAt: 0, restoredAt: 250, notes: [], outage: true, notReady: [] },
      ],
      recoveryLimitMs: 50,
      outboxes: { sessions: 3, stories: null },
    });
    expect(verdict.counts).toMatchObject({
      hang: 1,
      unauthorized: 1,
      'bad-refusal': 1,
      'slow-recovery': 1,
      outbox: 2,
    });
    expect(verdict.requests.hung).toBe(1);
    expect(verdict.passed).toBe(false);
  });
});
