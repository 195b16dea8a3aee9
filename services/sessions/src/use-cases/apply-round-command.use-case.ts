import { isUuid } from '@pp/contracts';
import type { ParsedRoundCommand, RoundAnswer } from '@pp/contracts';
import type { EntityManager } from '@pp/db';
import type { SessionRecord } from '../db/entities/index.ts';
import {
  forgetRounds,
  isSealed,
  lockRound,
  reopenRound,
  sealRound,
  setCurrentRound,
} from '../db/round.repository.ts';
import { applyRoundStatement, lockForRound, type OneStatementRound } from '../db/session.repository.ts';
import { deleteVotesOfStory, roundCounts, sealedVotesOf } from '../db/vote.repository.ts';
import { countdownRevealsNow, isVotingClosed } from '../domain/vote-rules.ts';
import {
  RevealNotDueError,
  SessionArchivedError,
  SessionNotFoundError,
  StoryNotFoundError,
} from '../errors.ts';
import type { SessionsContext } from './shared/context.ts';
import { toSnapshot } from './shared/session-snapshot.ts';

type Seal = NonNullable<ParsedRoundCommand['seal']>;

/**
 * An automatic reveal happens only while its reason holds, by this unit's own current data. A round
 * sealed already is a reveal decided already (one whose change the stories unit is still making):
 * sealing it again is due, whatever has changed since.
 */
async function assertSealDue(tx: EntityManager, session: SessionRecord, seal: Seal, now: Date) {
  const round = await lockRound(tx, session.id, seal.story_id, 'pending');
  if (!round) throw new StoryNotFoundError();
  if (round.sealed) return;
  if (round.status !== 'voting') throw new RevealNotDueError('it is not the open story');
  if (seal.when === 'all_voted') {
    if (!session.autoReveal) throw new RevealNotDueError('the session does not reveal by itself');
    const counts = await roundCounts(tx, session.id, round.id);
    if (counts.totalParticipants === 0 || counts.votesCast < counts.totalParticipants)
      throw new RevealNotDueError('not everyone has voted');
  }
  const deadline = { votebyEnabled: session.votebyEnabled, voteByAt: session.voteByAt ?? null };
  if (seal.when === 'deadline_passed' && !isVotingClosed(deadline, now))
    throw new RevealNotDueError('the vote-by deadline has not passed');
  if (seal.when === 'countdown_ended' && !countdownRevealsNow(round, now))
    throw new RevealNotDueError("the round's countdown has not reached zero");
}

/**
 * What a command with a seal answers: the round's votes with their voters (the room's view) when it
 * was sealed just now or, for a command applied before, when this unit has it sealed; else null.
 */
async function sealedVotes(em: EntityManager, sessionId: string, seal: Seal | null, applied: boolean) {
  if (!seal || !(applied || (await isSealed(em, sessionId, seal.story_id)))) return null;
  return sealedVotesOf(em, seal.story_id);
}

/**
 * The command as the one-statement form takes it, or undefined when it needs the transaction: an
 * automatic reveal (its reason is checked under the round's lock), several re-votes, or a seal or
 * re-vote mixed with other changes of the same story.
 */
function inOneStatement(command: ParsedRoundCommand, now: Date): OneStatementRound | undefined {
  const { seal, reset, forget, current } = command;
  const base = { version: command.version, kind: command.kind, current, forget };
  if (!seal && reset.length === 0) return base;
  if (seal && reset.length === 0) {
    const alone = seal.when === 'always' && current?.id !== seal.story_id && !forget.includes(seal.story_id);
    return alone ? { ...base, seal: { story_id: seal.story_id, at: now } } : undefined;
  }
  const [revote] = reset;
  if (!seal && reset.length === 1 && current?.id === revote && !forget.includes(revote!))
    return { ...base, reset: revote };
  return undefined;
}

/**
 * The stories unit changes the session's round: deleted stories' rounds go, a reset story's votes
 * go, a revealed story's round is sealed, and the current story is the one named. All of it under
 * the session's row lock and each round's lock (votes in flight commit first; later ones see the
 * change), and only when the command is newer than the last applied one. Sealing answers the sealed
 * votes every time, so a retried reveal gets them too. Commands that change the stories are refused
 * while the session is archived: it is read-only.
 */
export async function applyRoundCommand(
  ctx: SessionsContext,
  sessionId: string,
  command: ParsedRoundCommand,
): Promise<RoundAnswer> {
  if (!isUuid(sessionId)) throw new SessionNotFoundError();
  const now = ctx.now();
  const { seal } = command;
  const statement = inOneStatement(command, now);
  if (statement) {
    // Most commands (a move of the current round, a user's reveal, a re-vote after one): one
    // statement, like a vote.
    const done = await applyRoundStatement(ctx.em, sessionId, statement);
    if (!done) throw new SessionNotFoundError();
    if (command.kind === 'change' && done.session.status === 'archived') throw new SessionArchivedError();
    if (done.foreign) throw new StoryNotFoundError();
    if (!done.deferred) {
      if (done.applied) noteApplied(ctx, sessionId, command);
      // A seal made just now read its votes in the statement; a retried one reads them here.
      const votes = done.sealedVotes ?? (await sealedVotes(ctx.em, sessionId, seal, done.applied));
      return { applied: done.applied, session: toSnapshot(done.session), votes };
    }
    // A re-vote of an open round, or a command overtaken while it waited: the transaction below.
  }
  const answer = await ctx.em.transactional(async (tx) => {
    const locked = await lockForRound(tx, sessionId, command.version);
    if (!locked) throw new SessionNotFoundError();
    const { session, previousVersion } = locked;
    if (command.kind === 'change' && session.status === 'archived') throw new SessionArchivedError();
    const applied = command.version > previousVersion;
    if (applied) {
      if (seal && seal.when !== 'always') await assertSealDue(tx, session, seal, now);
      await forgetRounds(tx, session.id, command.forget);
      for (const storyId of command.reset) {
        if (!(await reopenRound(tx, session.id, storyId))) throw new StoryNotFoundError();
        await deleteVotesOfStory(tx, storyId);
      }
      if (seal && !(await sealRound(tx, session.id, seal.story_id, now))) throw new StoryNotFoundError();
      // A resync states what the stories unit committed; a change, what it is about to commit.
      await setCurrentRound(
        tx,
        session.id,
        command.current,
        command.kind === 'resync' ? null : command.version,
      );
    }
    return { applied, session: toSnapshot(session), votes: await sealedVotes(tx, session.id, seal, applied) };
  });
  if (answer.applied) noteApplied(ctx, sessionId, command);
  return answer;
}

/** A change that makes a story current may have opened its round: the votes here wait for its commit. */
function noteApplied(ctx: SessionsContext, sessionId: string, command: ParsedRoundCommand) {
  if (command.kind === 'change' && command.current)
    ctx.committedRounds.appliedRound(sessionId, command.version);
}
