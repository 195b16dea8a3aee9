/** The stories service's events that sessions keeps: its view of the stories, and the live room's. */
export const storyEventTypes = [
  'story.created',
  'story.updated',
  'story.revealed',
  'story.reset',
  'story.activated',
  'story.deleted',
] as const;
export type StoryEventType = (typeof storyEventTypes)[number];
