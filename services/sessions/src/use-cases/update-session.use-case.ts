import type { EntityManager } from '@pp/db';
import { ValidationError } from '@pp/http';
import type { Session } from '../db/entities/index.ts';
import { unsealedVotes } from '../db/vote.repository.ts';
import { deckOf } from '../domain/deck.ts';
import { settingsProblems, type SessionSettings } from '../domain/session-settings.ts';
import { SessionArchivedError, VotesNotInDeckError } from '../errors.ts';
import type { SessionsContext } from './shared/context.ts';
import { revealIfComplete } from './shared/auto-reveal.ts';
import { announce } from './shared/room-history.ts';
import { findOwnedSession } from './shared/find-session.ts';
import { checkLinks, withLinks } from './shared/links.ts';
import {
  entityValues,
  sameValue,
  sessionFields,
  settingsIn,
  settingsOf,
  type SessionFieldsInput,
} from './shared/session-fields.ts';
import { factsOf } from './shared/session-facts.ts';
import { toSnapshot } from './shared/session-snapshot.ts';

/** What an archived session may still have changed: where it is filed. */
const ORGANISING = new Set(['folder_id', 'workspace_id']);
/** What makes the deck a vote must be a card of. */
const DECK = new Set(['voting_system', 'custom_deck_values']);

/**
 * A vote is a card of the deck: a deck change that would leave votes cast and not revealed yet (the
 * open round's, or those kept by a story made pending) outside the new deck is refused (409), rather
 * than those votes being dropped behind their voters' backs or counting as no card at the reveal.
 * Adding cards, or changing the deck between rounds, is always taken.
 */
async function keepVotesOnTheDeck(tx: EntityManager, session: Session) {
  const deck = new Set(deckOf(session.votingSystem, session.customDeckValues ?? null));
  const stray = (await unsealedVotes(tx, session.id)).filter((v) => !deck.has(v.value));
  if (stray.length > 0) throw new VotesNotInDeckError(stray);
}

/**
 * An archived session's stories are read-only: the stories unit asks this unit about every change of
 * them from the moment it is told of an archive (changes that leave the round as it was otherwise
 * commit there alone). So it is told before the archive commits, outside the transaction: once the
 * archive answers 2xx, no change of the stories is taken. It cannot be reached: 503, nothing archived.
 * Told of an archive that then fails, it only asks this unit a while longer.
 */
async function tellStoriesOfArchive(
  ctx: SessionsContext,
  code: string,
  userId: string,
  at: Date,
  refused: (session: Session) => boolean,
) {
  // Not for a change its own checks refuse (it would hold the stories' changes for nothing); told
  // even when the session reads archived: an unarchive may commit before this change does.
  const session = await findOwnedSession(ctx.em.fork(), code, userId);
  if (refused(session)) return;
  await ctx.stories.archiving({ session: toSnapshot(session), at: at.toISOString() });
}

/**
 * The owner changes any settable field. What really changed is announced as session.updated, and an
 * archive or unarchive as session.archived / session.unarchived, in the same commit. A folder or
 * workspace must be the owner's (404 otherwise). Under the session's row lock: of changes made at
 * once, each is compared with what the one before made, so an archive asked twice at once is
 * announced once.
 */
export async function updateSession(
  ctx: SessionsContext,
  code: string,
  userId: string,
  patch: SessionFieldsInput,
) {
  const now = ctx.now();
  const values = entityValues(patch);
  const given = settingsIn(values);
  const problemsOf = (session: Session) =>
    settingsProblems(
      { ...settingsOf(session), ...given },
      new Set(Object.keys(given) as Array<keyof SessionSettings>),
      now,
    );
  if (patch.status === 'archived')
    await tellStoriesOfArchive(ctx, code, userId, now, (s) => Object.keys(problemsOf(s)).length > 0);
  const { session, changed } = await withLinks(() =>
    ctx.em.transactional(async (tx) => {
      const session = await findOwnedSession(tx, code, userId, { locked: true });
      const problems = problemsOf(session);
      if (Object.keys(problems).length > 0) throw new ValidationError(problems);
      await checkLinks(tx, userId, patch);

      const wasArchived = session.status === 'archived';
      const changed: string[] = [];
      for (const [field, prop] of Object.entries(sessionFields)) {
        if (!values.has(prop) || sameValue(session[prop], values.get(prop))) continue;
        Object.assign(session, { [prop]: values.get(prop) });
        changed.push(field);
      }
      // An archived session is read-only until it is unarchived (which the same change may do); it can
      // still be filed in a folder or a workspace.
      if (wasArchived && session.status === 'archived' && changed.some((f) => !ORGANISING.has(f)))
        throw new SessionArchivedError('its settings');
      if (changed.length === 0) return { session, changed };
      if (changed.some((f) => DECK.has(f))) await keepVotesOnTheDeck(tx, session);

      session.updatedAt = now;
      const snapshot = toSnapshot(session);
      announce(tx, 'session.updated', { session: snapshot, changed });
      const isArchived = session.status === 'archived';
      if (isArchived !== wasArchived) {
        announce(tx, isArchived ? 'session.archived' : 'session.unarchived', { session: snapshot });
      }
      return { session, changed };
    }),
  );
  if (changed.length > 0) ctx.publish();
  // Switched on while everyone has voted: the round is revealed before the answer.
  if (changed.includes('auto_reveal') && session.autoReveal) await revealIfComplete(ctx, session.id);
  return { session, facts: await factsOf(ctx.em, session) };
}
