import { ForbiddenError, NotFoundError, ValidationError } from '@pp/http';

export class SessionNotFoundError extends NotFoundError {
  constructor() {
    super('Session not found', 'session_not_found');
  }
}

export class StoryNotFoundError extends NotFoundError {
  constructor() {
    super('Story not found in this session', 'story_not_found');
  }
}

export class NoCurrentStoryError extends NotFoundError {
  constructor() {
    super('The session has no current story: name one with story_id', 'no_current_story');
  }
}

export class NotSessionOwnerError extends ForbiddenError {
  constructor() {
    super('Only the owner of the session can ask the assistant', 'forbidden');
  }
}

export class BriefRequiredError extends ValidationError {
  constructor() {
    super({ text: ['A brief is required to draft stories (text, or prompt)'] });
  }
}
