import { isEstimate, isNumericDeck, scaleOf, stepsBetween } from './deck.ts';

/** A story of the session with what the report needs: its status, final estimate and the values voted. */
export interface SessionStory {
  id: string;
  title: string;
  status: 'pending' | 'voting' | 'revealed';
  final_estimate: string | null;
  votes: string[];
}

export interface StoryAgreement {
  story_id: string;
  title: string;
  final_estimate: string | null;
  votes: number;
  /** Share of the counted votes (not "?" or a break) that chose the final estimate. */
  agreement: number | null;
  lowest: string | null;
  highest: string | null;
  /** How many cards apart the lowest and highest counted votes are. */
  spread: number;
}

export interface Outlier {
  story_id: string;
  title: string;
  vote: string;
  final_estimate: string;
  /** Cards between this vote and the final estimate. */
  steps: number;
}

export interface EstimationReport {
  session_id: string;
  totals: {
    stories: number;
    revealed: number;
    estimated: number;
    unestimated: number;
    votes: number;
    points: number | null;
  };
  agreement: {
    average: number | null;
    unanimous: number;
    wide_spread: number;
    by_story: StoryAgreement[];
  };
  outliers: Outlier[];
  recommendations: string[];
}

const round2 = (n: number) => Math.round(n * 100) / 100;
/** Votes this many cards apart or more mean the team did not see the same story. */
export const WIDE_SPREAD = 3;
const OUTLIER_STEPS = 2;

export function agreementOf(story: SessionStory, deck: readonly string[]): StoryAgreement {
  const counted = story.votes.filter(isEstimate);
  const placed = counted
    .map((v) => ({ v, at: scaleOf(v, deck) }))
    .filter((p): p is { v: string; at: number } => p.at !== undefined)
    .sort((a, b) => a.at - b.at);
  const lowest = placed[0]?.v ?? null;
  const highest = placed.at(-1)?.v ?? null;
  const same = story.final_estimate ? counted.filter((v) => v === story.final_estimate).length : 0;
  return {
    story_id: story.id,
    title: story.title,
    final_estimate: story.final_estimate,
    votes: story.votes.length,
    agreement: counted.length > 0 && story.final_estimate ? round2(same / counted.length) : null,
    lowest,
    highest,
    spread: lowest && highest ? (stepsBetween(lowest, highest, deck) ?? 0) : 0,
  };
}

/**
 * The session's estimation in numbers (totals, agreement per story and on average, votes far from
 * the final estimate) and what to do about it: split or clarify stories with a wide spread, discuss
 * again where few agreed, clarify where many could not tell, estimate what is left.
 */
export function estimationReport(
  sessionId: string,
  stories: readonly SessionStory[],
  deck: readonly string[],
): EstimationReport {
  const revealed = stories.filter((s) => s.status === 'revealed');
  const byStory = revealed.map((s) => agreementOf(s, deck));
  const scored = byStory.filter((a) => a.agreement !== null);
  const outliers: Outlier[] = [];
  for (const s of revealed) {
    if (!s.final_estimate || s.votes.length < 3) continue;
    for (const vote of s.votes.filter(isEstimate)) {
      const steps = stepsBetween(vote, s.final_estimate, deck);
      if (steps !== undefined && steps >= OUTLIER_STEPS)
        outliers.push({ story_id: s.id, title: s.title, vote, final_estimate: s.final_estimate, steps });
    }
  }
  const estimated = revealed.filter((s) => s.final_estimate !== null);
  const points = isNumericDeck(deck)
    ? estimated.reduce((sum, s) => sum + (scaleOf(s.final_estimate, deck) ?? 0), 0)
    : null;

  const recommendations: string[] = [];
  const wide = byStory.filter((a) => a.spread >= WIDE_SPREAD);
  for (const a of wide.slice(0, 5))
    recommendations.push(
      `Split or clarify "${a.title}": votes ranged from ${a.lowest} to ${a.highest}, the team saw different stories.`,
    );
  for (const a of scored.filter((x) => x.agreement! < 0.5 && x.spread < WIDE_SPREAD).slice(0, 5))
    recommendations.push(
      `Discuss "${a.title}" again: only ${Math.round(a.agreement! * 100)} % of the votes chose ${a.final_estimate}.`,
    );
  for (const s of revealed
    .filter((x) => x.votes.length > 0 && x.votes.filter((v) => !isEstimate(v)).length * 3 >= x.votes.length)
    .slice(0, 5))
    recommendations.push(
      `Clarify "${s.title}" before estimating it again: many votes said they could not tell ("?").`,
    );
  for (const s of revealed.filter((x) => x.final_estimate === null).slice(0, 5))
    recommendations.push(`Vote on "${s.title}" again: no vote counted towards an estimate.`);
  const left = stories.filter((s) => s.status !== 'revealed');
  if (left.length > 0) {
    const next = left.find((s) => s.status === 'voting') ?? left[0]!;
    recommendations.push(
      `Estimate the ${left.length} remaining ${left.length === 1 ? 'story' : 'stories'}, starting with "${next.title}".`,
    );
  }
  if (recommendations.length === 0)
    recommendations.push(
      revealed.length === 0
        ? 'Reveal a first story to see how the team agrees.'
        : 'The estimates are consistent: keep the current practice.',
    );

  return {
    session_id: sessionId,
    totals: {
      stories: stories.length,
      revealed: revealed.length,
      estimated: estimated.length,
      unestimated: stories.length - estimated.length,
      votes: revealed.reduce((sum, s) => sum + s.votes.length, 0),
      points: points === null ? null : round2(points),
    },
    agreement: {
      average:
        scored.length > 0 ? round2(scored.reduce((sum, a) => sum + a.agreement!, 0) / scored.length) : null,
      unanimous: scored.filter((a) => a.agreement === 1).length,
      wide_spread: wide.length,
      by_story: byStory,
    },
    outliers,
    recommendations,
  };
}
