import { isUuid } from '@pp/contracts';
import { ForbiddenError, type RoomController } from '@pp/http';
import { findStory } from '../../db/story.repository.ts';
import { StoryNotFoundError } from '../../errors.ts';
import type { Actor, StoriesContext } from './context.ts';

/**
 * Who runs a change of this story's round (reveal, reset, activate): the owner, checked by the change
 * itself, or the room's moderator by its participant token, which the sessions unit (it owns the
 * participants and their roles) confirms first: 403 when the token is no current moderator's of the
 * story's room, 404 before that for a story that does not exist.
 */
export async function roundActor(
  ctx: StoriesContext,
  controller: RoomController,
  storyId: string,
): Promise<Actor> {
  if (controller.kind === 'owner') return { kind: 'user', userId: controller.userId };
  const story = isUuid(storyId) ? await findStory(ctx.em, storyId.toLowerCase()) : null;
  if (!story) throw new StoryNotFoundError();
  const moderator = await ctx.sessions.moderator(story.sessionId, controller.participantToken);
  if (!moderator)
    throw new ForbiddenError("Only the session's owner or its moderator can do this", 'forbidden');
  return { kind: 'moderator', participantId: moderator.id };
}
