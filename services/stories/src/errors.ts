import { AppError, ConflictError, NotFoundError, ServiceUnavailableError } from '@pp/http';

export class SessionNotFoundError extends NotFoundError {
  constructor() {
    super('Session not found', 'session_not_found');
  }
}

export class StoryNotFoundError extends NotFoundError {
  constructor() {
    super('Story not found', 'story_not_found');
  }
}

export class StoryAlreadyRevealedError extends ConflictError {
  constructor() {
    super('This story has already been revealed; reset it to vote again', 'story_already_revealed');
  }
}

export class ConcurrentChangeError extends ConflictError {
  constructor() {
    super("The session's stories kept changing at the same time: try again", 'concurrent_change');
  }
}

/**
 * A change made on an event gave way to another change of the session under way (most often the same
 * reveal, asked of another replica by the sessions unit): the event is handed back and handled again
 * shortly, when that change has committed, and is never a dead letter.
 */
export class ChangeUnderWayError extends ServiceUnavailableError {
  constructor() {
    super("Another change of the session's stories is under way: try again shortly");
  }
}

/**
 * An automatic reveal that is not (or no longer) due: the story was revealed or deleted meanwhile,
 * the session is archived, or the sessions unit found its reason gone (409 reveal_not_due). A reveal
 * that lost to changes made at the same time is tried again (the event is handed back).
 */
export const notDue = (err: unknown) =>
  err instanceof AppError &&
  (err.status === 404 || err.status === 409) &&
  !(err instanceof ConcurrentChangeError);
