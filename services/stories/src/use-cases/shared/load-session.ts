import { isUuid, sessionCodeOf } from '@pp/contracts';
import { findSession, saveSnapshot } from '../../db/session.repository.ts';
import { findStory } from '../../db/story.repository.ts';
import type { SessionRecord, SessionView, Story } from '../../db/entities/index.ts';
import type { KeptVote } from '../../domain/vote-names.ts';
import { NotOwnerError } from '@pp/http';
import { SessionNotFoundError, StoryNotFoundError } from '../../errors.ts';
import type { Actor, StoriesContext } from './context.ts';
import { sessionOfSnapshot } from './summaries.ts';

/**
 * The session from the read model; when its event has not arrived yet, from the sessions service
 * (and kept), so a story added right after its session was created does not 404.
 */
export async function loadSession(ctx: StoriesContext, codeOrId: string): Promise<SessionView> {
  if (!isUuid(codeOrId) && !sessionCodeOf(codeOrId)) throw new SessionNotFoundError();
  const known = await findSession(ctx.em, codeOrId);
  if (known) return known;
  const snapshot = await ctx.sessions.lookup(codeOrId);
  if (!snapshot) throw new SessionNotFoundError();
  await saveSnapshot(ctx.em, snapshot);
  const saved = await findSession(ctx.em, snapshot.id);
  if (!saved) throw new SessionNotFoundError();
  return saved;
}

export function assertOwner(actor: Actor, session: SessionRecord): void {
  if (actor.kind === 'user' && actor.userId !== session.ownerId) throw new NotOwnerError('session');
}

/** A story and its session, for the session's owner (404 before 403: an unknown id says nothing). */
export async function loadOwnedStory(
  ctx: StoriesContext,
  actor: Actor,
  storyId: string,
): Promise<{ story: Story; session: SessionView }> {
  if (!isUuid(storyId)) throw new StoryNotFoundError();
  const story = await findStory(ctx.em, storyId.toLowerCase());
  if (!story) throw new StoryNotFoundError();
  const session = await loadSession(ctx, story.sessionId);
  assertOwner(actor, session);
  return { story, session };
}

/**
 * The session with its current settings when the stories to show name voters: whether names are
 * shown follows record_vote_names as the sessions unit has it now (the read model could be a moment
 * behind a change the owner just made). Without a named vote to show, the read model is enough.
 */
export async function withCurrentNames(
  ctx: StoriesContext,
  session: SessionRecord,
  stories: ReadonlyArray<{ votes?: readonly KeptVote[] | null }>,
): Promise<SessionRecord> {
  const named = stories.some((s) => s.votes?.some((v) => v.participant.name !== null));
  return named ? currentSession(ctx, session) : session;
}

/** The session as the sessions unit has it now, kept in the read model when it is newer. */
export async function currentSession(ctx: StoriesContext, session: SessionRecord): Promise<SessionRecord> {
  const snapshot = await ctx.sessions.lookup(session.id);
  if (!snapshot) throw new SessionNotFoundError();
  const current = sessionOfSnapshot(snapshot);
  if (current.updatedAt.getTime() !== session.updatedAt.getTime()) await saveSnapshot(ctx.em, snapshot);
  return current;
}
