import type { StoryForUnits } from '@pp/contracts';

/** A story's own text, as data for the model. */
export const storyData = (s: StoryForUnits) => ({
  title: s.title,
  description: s.description,
  acceptance_criteria: s.acceptance_criteria,
});

/** A story with its estimation, as data for the model (the text is cut: the figures matter there). */
export const estimatedStoryData = (s: StoryForUnits) => ({
  title: s.title,
  description: s.description.slice(0, 300),
  status: s.status,
  final_estimate: s.final_estimate,
  votes: s.votes,
});
