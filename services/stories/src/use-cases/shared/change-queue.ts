import { isUuid, sessionCodeOf } from '@pp/contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EventData, EventEnvelope, EventType, RoundAnswer } from '@pp/contracts';
import { outboxEvent } from '@pp/events';
import { AppError, NotOwnerError } from '@pp/http';
import type { SessionRecord, StoryRecord } from '../../db/entities/index.ts';
import {
  commitQueue,
  planQueue,
  type HeavyStoryField,
  type PlannedQueue,
  type QueueStory,
  type QueueReading,
  type QueueTarget,
} from '../../db/queue.repository.ts';
import { settleRound } from '../../db/round-version.repository.ts';
import { newStory, type NewStory } from '../../db/story.repository.ts';
import { noEffects, roundOf, sameRound, type RoundEffects, type RoundPlan } from '../../domain/round-plan.ts';
import {
  ChangeUnderWayError,
  ConcurrentChangeError,
  SessionNotFoundError,
  StoryNotFoundError,
} from '../../errors.ts';
import { SOURCE, type Actor, type StoriesContext } from './context.ts';
import { loadSession } from './load-session.ts';
import { sessionOfSnapshot } from './summaries.ts';

/**
 * A session's stories in queue order, with what a change adds and takes away: every story, or, for a
 * change that reads only the `current` part of the queue, the current story, the change's target and
 * the first pending story (see QueueReading). Only the change's target and the stories it makes are
 * whole; the others come without their large fields (texts, kept votes), which no change of the queue
 * touches.
 */
export interface Queue {
  readonly stories: QueueStory[];
  /** How many stories the session has (read or not), with those the change made and took away. */
  readonly size: number;
  create(data: NewStory): StoryRecord;
  remove(story: QueueStory): void;
}

/**
 * What a change of the stories works with. It runs twice on the same stories: to plan what it makes
 * of the round, then, with the sessions unit's answer, to make the change itself.
 */
export interface QueueChange {
  queue: Queue;
  session: SessionRecord;
  /** The story the change is about (changes by story id). */
  target: StoryRecord | undefined;
  now: Date;
  /** What the change asks of the round beside the current story (the change fills it in). */
  effects: RoundEffects;
  /**
   * The sessions unit's answer (the session's current settings, sealed votes): only the second time,
   * and only when the change told it the round.
   */
  answer: RoundAnswer | undefined;
  /** An event of the change: recorded only the second time. */
  announce<T extends EventType>(type: T, data: EventData<T>): void;
}

export type ChangeKind = 'change' | 'resync';
type Change<T> = (c: QueueChange) => T;

export interface ChangeOptions {
  /** A change of the stories, or the round sync stating the round again ('resync'). */
  kind?: ChangeKind;
  /** What the change reads of the queue: all of it (the default), or only the `current` part. */
  reads?: QueueReading;
  /**
   * The change gives way to another change of the session under way: it plans only once none is (the
   * round settled), taking no version meanwhile and waiting out of the session's turn, and ends with
   * ChangeUnderWayError when one is still under way after GIVE_WAY_MS. For a change made on an event
   * that a request may be making through another replica at the same moment (an automatic reveal's
   * fallback): each plan of one would make the other's commit fail, and two such changes could keep
   * undoing each other's plans; giving way lets the request's change go through, and the event's
   * then finds it made.
   */
  yields?: boolean;
}

const MAX_ATTEMPTS = 8;

/**
 * Runs the change on copies of the planned stories: what it makes of the queue, the round, and (when
 * `final`: the run that is written) its events.
 */
function runChange<T>(
  planned: PlannedQueue,
  target: QueueTarget,
  change: Change<T>,
  now: Date,
  final: boolean,
  answer?: RoundAnswer,
) {
  // Changes replace a story's fields (never change a field's value in place), so a shallow copy of
  // each story keeps the planned ones as they were read. The target is the whole story.
  const whole = new Set<string>();
  let story: StoryRecord | undefined;
  if ('storyId' in target) {
    if (!planned.target) throw new StoryNotFoundError();
    story = { ...planned.target };
    whole.add(story.id);
  }
  const stories: QueueStory[] = planned.stories.map((s) => (s.id === story?.id ? story : { ...s }));
  const events: EventEnvelope[] = [];
  const effects = noEffects();
  let size = planned.size;
  const queue: Queue = {
    stories,
    get size() {
      return size;
    },
    create(data) {
      const made = newStory(data, now);
      stories.push(made);
      size++;
      whole.add(made.id);
      return made;
    },
    remove(story) {
      stories.splice(stories.indexOf(story), 1);
      size--;
    },
  };
  const result = change({
    queue,
    session: planned.session,
    target: story,
    now,
    effects,
    answer,
    announce: (type, data) => {
      if (final) events.push(outboxEvent(type, data, { source: SOURCE }));
    },
  });
  return { result, stories, whole, events, round: roundOf(stories, effects) };
}

const HEAVY: readonly HeavyStoryField[] = ['description', 'acceptanceCriteria', 'votes'];

/** Whether a change gave any field of the story another value (a replaced field is a new value). */
function differs(before: QueueStory, after: QueueStory) {
  for (const key of Object.keys(after) as Array<keyof QueueStory>)
    if (before[key] !== after[key]) return true;
  return false;
}

/** The stories written by a change: those it changed, made, and took away. */
function differences(planned: PlannedQueue, after: QueueStory[], whole: Set<string>) {
  const before = planned.stories.map((s) => (s.id === planned.target?.id ? planned.target : s));
  const old = new Map(before.map((s) => [s.id, s]));
  const kept = new Set(after.map((s) => s.id));
  const changed = after.filter((s) => old.has(s.id) && differs(old.get(s.id)!, s));
  for (const s of changed)
    if (!whole.has(s.id) && HEAVY.some((key) => s[key] !== undefined))
      throw new Error('a change of the queue may change the texts and votes of its own story only');
  return {
    changed: changed.map((s) => ({ story: s, whole: whole.has(s.id) })),
    created: after.filter((s): s is StoryRecord => !old.has(s.id)),
    deleted: before.filter((s) => !kept.has(s.id)).map((s) => s.id),
  };
}

/** The target as the read model spells it; undefined when it cannot name anything. */
function normalized(target: QueueTarget): QueueTarget | undefined {
  if ('storyId' in target)
    return isUuid(target.storyId) ? { storyId: target.storyId.toLowerCase() } : undefined;
  if ('code' in target) {
    const code = sessionCodeOf(target.code);
    return code === undefined ? undefined : { code };
  }
  return isUuid(target.sessionId) ? { sessionId: target.sessionId.toLowerCase() } : undefined;
}

/** The queue of the change's session, and the next round version (the read model filled in first if need be). */
async function plan(
  ctx: StoriesContext,
  actor: Actor,
  target: QueueTarget,
  reads: QueueReading,
  yields: boolean,
): Promise<PlannedQueue> {
  const owner = actor.kind === 'user' ? actor.userId : null;
  let planned = await planQueue(ctx.em, target, owner, reads, yields);
  if (!planned && !('storyId' in target)) {
    // The session.created event may not have arrived yet: the sessions unit tells.
    await loadSession(ctx, 'code' in target ? target.code : target.sessionId);
    planned = await planQueue(ctx.em, target, owner, reads, yields);
  }
  if (!planned) throw 'storyId' in target ? new StoryNotFoundError() : new SessionNotFoundError();
  if (planned.busy) throw new ChangeUnderWayError();
  if (planned.roundVersion === undefined) throw new NotOwnerError('session');
  return planned;
}

/**
 * Whether a change commits without telling the sessions unit: it leaves the round as it was (the same
 * current story, title and place, nothing sealed, reset or deleted), the round was settled when the
 * change took its version (the sessions unit shows what this unit committed, and no other change is
 * under way: one planned after this one makes its commit fail), and no archive of the session was
 * asked (the sessions unit, which refuses the changes of an archived session, tells this unit before
 * it archives one). Adding a story behind the current one, editing a waiting one: one round trip less.
 */
function keepsRoundHere(planned: PlannedQueue, round: RoundPlan, kind: ChangeKind) {
  return (
    kind === 'change' &&
    planned.wasSettled === true &&
    !planned.archiving &&
    sameRound(round, roundOf(planned.stories, noEffects()))
  );
}

/**
 * How long a change that gives way waits for the change under way before it ends with
 * ChangeUnderWayError (the sessions unit waits as long for the reveal it asks of this unit).
 */
const GIVE_WAY_MS = 2_000;
const GIVE_WAY_POLL_MS = 20;

/**
 * One change of a session's stories (by its owner, or by this service itself), made in step with the
 * sessions unit, which owns the voting round, and without holding a lock or a transaction while it
 * is called:
 *
 * 1. plan: one read of the session's stories (all, or the current part: `reads`), which also takes
 *    the next round version (and marks the round unsettled); the change runs on them to learn what it
 *    makes of the round (the current story, a seal, a reset, a deletion); refusals (403, 404, 409,
 *    422) end it here;
 * 2. the sessions unit is told the round with that version (idempotent: retried on a lost answer; a
 *    refusal such as 409 session_archived ends it with nothing changed), unless the change leaves the
 *    round as the sessions unit already has it (keepsRoundHere);
 * 3. commit: the change runs again with the answer, if any (the session's current deck and settings,
 *    the sealed votes) and is written with its events in one statement, only if no change was planned
 *    or committed since the read; else it is planned again.
 *
 * Changes of one session take turns in this replica (in the order they came), so that changes made
 * at once through one replica do not keep undoing each other's plans; see session-turns.ts.
 *
 * So after a 2xx, the sessions unit already shows what the change made of the round. If the sessions
 * unit cannot be reached, the answer is 503 and nothing has changed here; if it changed the round but
 * this service could not commit (a crash, a lost answer, the database), the round stays unsettled and
 * the round sync task states it again within seconds. Meanwhile the sessions unit takes no vote on a
 * round the change opened: it waits for this service to have committed the change (its events, which
 * go out after the commit with the change's round version, say so; else the first vote asks), so no
 * vote lands on a story that was never made.
 */
export async function changeQueue<T>(
  ctx: StoriesContext,
  actor: Actor,
  given: QueueTarget,
  change: Change<T>,
  { kind = 'change', reads = 'queue', yields = false }: ChangeOptions = {},
): Promise<{ result: T; session: SessionRecord }> {
  const target = normalized(given);
  if (!target) throw 'storyId' in given ? new StoryNotFoundError() : new SessionNotFoundError();
  if (!yields) return changeInTurn(ctx, actor, target, change, kind, reads, false);
  // Giving way, it waits out of the session's turn: the change under way may be waiting for that turn.
  const deadline = Date.now() + GIVE_WAY_MS;
  for (;;) {
    try {
      return await changeInTurn(ctx, actor, target, change, kind, reads, true);
    } catch (err) {
      if (!(err instanceof ChangeUnderWayError) || Date.now() >= deadline) throw err;
      await sleep(GIVE_WAY_POLL_MS);
    }
  }
}

/** changeQueue's change, in the session's turn; one that gives way ends at once when another is under way. */
async function changeInTurn<T>(
  ctx: StoriesContext,
  actor: Actor,
  target: QueueTarget,
  change: Change<T>,
  kind: ChangeKind,
  reads: QueueReading,
  yields: boolean,
): Promise<{ result: T; session: SessionRecord }> {
  // The session's turn is taken before the read when the session is known, else right after it.
  let read: PlannedQueue | undefined;
  let sessionId = ctx.turns.knownSessionOf(target);
  if (!sessionId) {
    read = await plan(ctx, actor, target, reads, yields);
    sessionId = read.session.id;
    ctx.turns.rememberSessionOf(target, sessionId);
  }
  return ctx.turns.run(sessionId, async (waited) => {
    // What was read while an earlier change of the session was under way is stale: read again.
    let planned = waited ? undefined : read;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      planned ??= await plan(ctx, actor, target, reads, yields);
      const version = planned.roundVersion!;
      const now = ctx.now();
      let round: RoundPlan;
      let answer: RoundAnswer | undefined;
      try {
        round = runChange(planned, target, change, now, false).round;
        if (!keepsRoundHere(planned, round, kind))
          answer = await ctx.sessions.applyRound(planned.session.id, { version, kind, ...round });
      } catch (err) {
        // A refusal changed nothing anywhere: the round is as settled as it was (if another change was
        // in flight, it may not be, and the round sync states it again).
        const refused = err instanceof AppError && err.status < 500;
        if (refused && planned.wasSettled) await settleRound(ctx.em, planned.session.id, version);
        throw err;
      }
      const made =
        round.seal && answer?.votes === null
          ? undefined
          : runChange(planned, target, change, now, true, answer);
      // Else a newer command overtook this one there: plan again.
      if (made) {
        if (!sameRound(made.round, round)) throw new Error('a change must make the same round both times');
        const written = await commitQueue(ctx.em, {
          sessionId: planned.session.id,
          roundVersion: version,
          queueVersion: planned.queueVersion,
          ...differences(planned, made.stories, made.whole),
          events: made.events,
          current: made.stories.find((s) => s.status === 'voting'),
        });
        if (written) {
          // Its events carry the round version: the sessions unit learns from them that the change is
          // committed, and the round it opened there takes votes without asking.
          ctx.publish();
          return {
            result: made.result,
            session: answer ? sessionOfSnapshot(answer.session) : planned.session,
          };
        }
        await sleep(Math.random() * 10 * attempt);
      }
      planned = undefined;
    }
    throw new ConcurrentChangeError();
  });
}
