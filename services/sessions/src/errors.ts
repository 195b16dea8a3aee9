import type { AppError } from '@pp/http';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ServiceUnavailableError,
  ValidationError,
} from '@pp/http';
import type { VoteRefusal } from './domain/vote-rules.ts';

export class SessionNotFoundError extends NotFoundError {
  constructor() {
    super('Session not found', 'session_not_found');
  }
}

export class SessionNotActiveError extends ConflictError {
  constructor() {
    super('The session is not active', 'session_not_active');
  }
}

/** The room has its maximum of participants already. */
export class RoomFullError extends ConflictError {
  constructor(max: number) {
    super(`The room is full: it holds at most ${max} participants`, 'room_full');
  }
}

export class ParticipantNotFoundError extends NotFoundError {
  constructor() {
    super('Participant not found in this session', 'participant_not_found');
  }
}

export class StoryNotFoundError extends NotFoundError {
  constructor() {
    super('Story not found in this session', 'story_not_found');
  }
}

const refusals: Record<Exclude<VoteRefusal, 'invalid_vote'>, () => AppError> = {
  participant_not_found: () => new ParticipantNotFoundError(),
  // 403 rather than 401: a 401 would tell the client its bearer token is bad, which it is not.
  participant_token_required: () =>
    new ForbiddenError(
      'This vote needs the X-Participant-Token header: the session requires it, or this participant has voted with it before',
      'participant_token_required',
    ),
  invalid_participant_token: () =>
    new ForbiddenError('The participant token does not match', 'invalid_participant_token'),
  observer_cannot_vote: () => new ForbiddenError('Observers do not vote', 'observer_cannot_vote'),
  session_not_active: () => new SessionNotActiveError(),
  voting_closed: () =>
    new ConflictError(
      "Voting is closed: the vote-by deadline or the round's countdown has passed",
      'voting_closed',
    ),
  no_open_story: () => new ConflictError('No story is open for voting', 'no_open_story'),
  story_already_revealed: () =>
    new ConflictError('The votes of this story are already revealed', 'story_already_revealed'),
};

/**
 * The current story was made current by a change the stories unit has not shown committed yet (it is
 * under way, or it failed and the round is about to be stated again): no vote is taken on it until then.
 */
export class RoundNotConfirmedError extends ServiceUnavailableError {
  constructor() {
    super('The current story is still being changed, try again shortly', 'round_not_confirmed');
  }
}

export function voteRefusalError(refusal: VoteRefusal, deck: readonly string[]): AppError {
  if (refusal === 'invalid_vote') {
    return new ValidationError({ vote: [`must be one of the session's cards: ${deck.join(', ')}`] });
  }
  return refusals[refusal]();
}

/** An archived session is read-only: its stories, its room and its settings, until it is unarchived. */
export class SessionArchivedError extends ConflictError {
  constructor(what = 'its stories') {
    super(`The session is archived: unarchive it to change ${what}`, 'session_archived');
  }
}

/** An automatic reveal whose condition no longer holds (a setting changed, or not everyone voted). */
export class RevealNotDueError extends ConflictError {
  constructor(reason: string) {
    super(`The story is not due for an automatic reveal: ${reason}`, 'reveal_not_due');
  }
}

export class FolderNotFoundError extends NotFoundError {
  constructor() {
    super('Folder not found', 'folder_not_found');
  }
}

export class WorkspaceNotFoundError extends NotFoundError {
  constructor() {
    super('Workspace not found', 'workspace_not_found');
  }
}

export class TemplateNotFoundError extends NotFoundError {
  constructor() {
    super('Template not found', 'template_not_found');
  }
}

/** A folder or template name the owner uses already (names are compared in any case). */
export class DuplicateNameError extends ConflictError {
  constructor(what: 'folder' | 'template') {
    super(`You already have a ${what} with this name`, 'duplicate');
  }
}

/** A deck change that would leave votes cast and not revealed that are no longer cards. */
export class VotesNotInDeckError extends ConflictError {
  constructor(stray: Array<{ title: string; value: string }>) {
    const listed = stray
      .slice(0, 5)
      .map((v) => `${v.value} (${v.title})`)
      .join(', ');
    super(
      `Votes already cast are not cards of the new deck: ${listed}${stray.length > 5 ? ', …' : ''}. ` +
        'Reveal those stories or clear their votes first.',
      'votes_not_in_deck',
    );
  }
}
