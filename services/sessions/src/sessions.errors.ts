import type { AppError } from '@pp/http';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '@pp/http';
import type { VoteRefusal } from './domain/vote-rules.ts';

export class SessionNotFoundError extends NotFoundError {
  constructor() {
    super('Session not found', 'session_not_found');
  }
}

export class NotSessionOwnerError extends ForbiddenError {
  constructor() {
    super('Only the owner of this session can do this', 'forbidden');
  }
}

export class SessionNotActiveError extends ConflictError {
  constructor() {
    super('The session is not active', 'session_not_active');
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
    new ForbiddenError('This session requires the X-Participant-Token header', 'participant_token_required'),
  invalid_participant_token: () =>
    new ForbiddenError('The participant token does not match', 'invalid_participant_token'),
  observer_cannot_vote: () => new ForbiddenError('Observers do not vote', 'observer_cannot_vote'),
  session_not_active: () => new SessionNotActiveError(),
  voting_closed: () => new ConflictError('The vote-by deadline has passed', 'voting_closed'),
  no_open_story: () => new ConflictError('No story is open for voting', 'no_open_story'),
  story_already_revealed: () =>
    new ConflictError('The votes of this story are already revealed', 'story_already_revealed'),
};

export function voteRefusalError(refusal: VoteRefusal, deck: readonly string[]): AppError {
  if (refusal === 'invalid_vote') {
    return new ValidationError({ vote: [`must be one of the session's cards: ${deck.join(', ')}`] });
  }
  return refusals[refusal]();
}
