import { ConflictError, NotFoundError } from '@pp/http';

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
