import type { SessionView, Story } from '../db/entities/index.ts';

/** The story as events carry it. */
export const storySummary = (story: Story) => ({
  id: story.id,
  title: story.title,
  status: story.status,
  position: story.position,
});

export const sessionRef = (session: SessionView) => ({ session_id: session.id, session_code: session.code });
