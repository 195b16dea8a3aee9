import type { RoundStory, SealCondition } from '@pp/contracts';
import type { QueuedStory } from './story-queue.ts';

/** What a change of the stories asks of the session's voting round, beside which story is current. */
export interface RoundEffects {
  /** Stories whose votes go and whose round opens again. */
  reset: string[];
  /** The story whose round is sealed, and on what condition. */
  seal: { story_id: string; when: SealCondition } | null;
  /** Deleted stories. */
  forget: string[];
}

export interface RoundPlan extends RoundEffects {
  current: RoundStory | null;
}

export const noEffects = (): RoundEffects => ({ reset: [], seal: null, forget: [] });

/** The round a queue of stories makes: its `voting` story is the current one. */
export function roundOf(
  stories: ReadonlyArray<QueuedStory & { title: string }>,
  effects: RoundEffects,
): RoundPlan {
  const current = stories.find((s) => s.status === 'voting');
  return {
    current: current ? { id: current.id, title: current.title, position: current.position } : null,
    reset: [...effects.reset],
    seal: effects.seal ? { ...effects.seal } : null,
    forget: [...effects.forget],
  };
}

/** Whether two plans ask the same of the round (both made by roundOf, so their keys come in one order). */
export const sameRound = (a: RoundPlan, b: RoundPlan) => JSON.stringify(a) === JSON.stringify(b);
