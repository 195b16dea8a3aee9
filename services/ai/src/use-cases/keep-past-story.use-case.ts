import { BoundedMap } from '@pp/collections';
import { termCounts } from '../domain/similarity.ts';
import type { EventData } from '@pp/contracts';
import {
  forgetPastStory,
  hasPastStory,
  keepPastStory,
  removePastStory,
} from '../db/past-story.repository.ts';
import type { AiContext } from './shared/context.ts';
import { TERMS_VERSION } from './shared/past-story.ts';

/** Sessions' owners never change: each is asked for once per process (bounded). */
const owners = new BoundedMap<string, string>(10_000);

async function ownerOf(ctx: AiContext, sessionId: string): Promise<string | null> {
  const known = owners.get(sessionId);
  if (known) return known;
  const session = await ctx.sessions.lookup(sessionId);
  if (!session) return null;
  owners.set(sessionId, session.owner_id);
  return session.owner_id;
}

/**
 * Brings one story of the owners' history in line with the stories unit: kept while it is revealed
 * (with its text, for similarity), dropped once reset or deleted. It reads the story as it is now, so
 * events handled late or out of order still end in the right state. `onlyIfKept`: a change to a story
 * the history does not hold (edited or reset before any reveal) costs no call.
 */
export async function keepPastStoryInLine(
  ctx: AiContext,
  sessionId: string,
  storyId: string,
  options: { onlyIfKept?: boolean } = {},
): Promise<void> {
  if (options.onlyIfKept && !(await hasPastStory(ctx.em, storyId))) return;
  const [story] = await ctx.stories.list(sessionId, { ids: [storyId] });
  if (!story || story.status !== 'revealed') return forgetPastStory(ctx.em, storyId);
  const owner = await ownerOf(ctx, sessionId);
  if (!owner) return forgetPastStory(ctx.em, storyId);
  await keepPastStory(ctx.em, {
    story_id: story.id,
    session_id: sessionId,
    owner_id: owner,
    title: story.title,
    final_estimate: story.final_estimate,
    votes: story.votes,
    terms: termCounts(story),
    terms_version: TERMS_VERSION,
    revealed_at: story.revealed_at ?? new Date().toISOString(),
  });
}

/**
 * A revealed story joins its owner's history as the event tells it (its text, estimate and votes): no
 * call to the stories unit. An event without the story's text (published before events carried it) is
 * read back as any other change. A reveal from before the story's last reset or deletion is not kept
 * (events of different types are handled in any order).
 */
export async function keepRevealedStory(ctx: AiContext, data: EventData<'story.revealed'>): Promise<void> {
  const { story } = data;
  if (story.description === undefined || story.acceptance_criteria === undefined)
    return keepPastStoryInLine(ctx, data.session_id, story.id);
  const owner = await ownerOf(ctx, data.session_id);
  if (!owner) return;
  await keepPastStory(ctx.em, {
    story_id: story.id,
    session_id: data.session_id,
    owner_id: owner,
    title: story.title,
    final_estimate: story.final_estimate,
    votes: story.votes.map((v) => v.value),
    terms: termCounts({
      title: story.title,
      description: story.description,
      acceptance_criteria: story.acceptance_criteria,
    }),
    terms_version: TERMS_VERSION,
    revealed_at: story.revealed_at,
  });
}

/**
 * A story was reset or deleted at `at`: it leaves the history (one statement, no call), and a reveal
 * from before `at` whose event comes later is not kept.
 */
export async function removeFromHistory(ctx: AiContext, storyId: string, at: string): Promise<void> {
  await removePastStory(ctx.em, storyId, at);
}
