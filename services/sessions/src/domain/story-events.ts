/** The stories unit's events that the live room shows. */
export const storyEventTypes = [
  'story.created',
  'story.updated',
  'story.revealed',
  'story.reset',
  'story.activated',
  'story.deleted',
] as const;
