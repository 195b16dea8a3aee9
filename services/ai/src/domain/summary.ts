import { analyzeStory } from './analyze.ts';
import { estimationReport, type SessionStory } from './report.ts';
import type { StoryText } from './story-form.ts';
import { quote } from './text.ts';

export interface SessionSummary {
  summary: string;
  highlights: string[];
  risks: string[];
  next_steps: string[];
}

/** The clarity of the next stories is checked, not of the whole backlog: that is what the next meeting needs. */
const UPCOMING = 20;
const LOW_CLARITY = 50;

/** Where the session stands, what went well, what could go wrong and what to do next. */
export function summarizeSession(
  session: { id: string; name: string },
  stories: ReadonlyArray<SessionStory & StoryText>,
  deck: readonly string[],
): SessionSummary {
  const report = estimationReport(session.id, stories, deck);
  const { totals, agreement } = report;
  const current = stories.find((s) => s.status === 'voting');
  const upcoming = stories.filter((s) => s.status !== 'revealed').slice(0, UPCOMING);
  const unclear = upcoming
    .map((s) => ({ s, a: analyzeStory(s) }))
    .filter((x) => x.a.clarity_score < LOW_CLARITY);
  const pct = (n: number) => `${Math.round(n * 100)} %`;

  const summary = [
    `"${session.name}": ${totals.stories} ${totals.stories === 1 ? 'story' : 'stories'}, ${totals.revealed} revealed` +
      (totals.points !== null && totals.revealed > 0 ? ` (${totals.points} points)` : '') +
      `, ${totals.stories - totals.revealed} to estimate.`,
    agreement.average !== null
      ? `Votes matched the final estimate ${pct(agreement.average)} of the time on average.`
      : '',
    current ? `Now estimating "${current.title}".` : '',
  ]
    .filter(Boolean)
    .join(' ');

  const highlights: string[] = [];
  if (agreement.unanimous > 0) {
    const titles = agreement.by_story.filter((a) => a.agreement === 1).map((a) => a.title);
    highlights.push(
      `${agreement.unanimous} ${agreement.unanimous === 1 ? 'story' : 'stories'} reached a unanimous vote: ${quote(titles)}.`,
    );
  }
  if (totals.revealed > 0)
    highlights.push(`${totals.estimated} of ${totals.revealed} revealed stories have a final estimate.`);
  if (agreement.average !== null && agreement.average >= 0.7)
    highlights.push('The team mostly agrees: estimates converge quickly.');
  if (highlights.length === 0) highlights.push('No story has been revealed yet.');

  const risks: string[] = [];
  const wide = agreement.by_story.filter((a) => a.spread >= 3);
  if (wide.length > 0)
    risks.push(`Wide spread on ${quote(wide.map((a) => a.title))}: the team did not see the same story.`);
  if (report.outliers.length > 0)
    risks.push(
      `${report.outliers.length} ${report.outliers.length === 1 ? 'vote was' : 'votes were'} two cards or more away from the final estimate.`,
    );
  if (unclear.length > 0)
    risks.push(
      `${unclear.length} upcoming ${unclear.length === 1 ? 'story scores' : 'stories score'} below ${LOW_CLARITY} on clarity: ${quote(unclear.map((x) => x.s.title))}.`,
    );
  const unknown = stories.filter((s) => s.status === 'revealed' && s.final_estimate === null);
  if (unknown.length > 0)
    risks.push(
      `${unknown.length} revealed ${unknown.length === 1 ? 'story has' : 'stories have'} no estimate (only "?" or breaks).`,
    );
  if (risks.length === 0) risks.push('Nothing stands out: no wide spread, no unclear story ahead.');

  const next_steps: string[] = [];
  if (current) next_steps.push(`Finish the vote on "${current.title}" and reveal it.`);
  for (const x of unclear.slice(0, 3))
    next_steps.push(`Clarify "${x.s.title}" before the vote: ${x.a.issues[0]?.message ?? 'it is unclear.'}`);
  next_steps.push(
    ...report.recommendations.filter((r) => !r.startsWith('The estimates are consistent')).slice(0, 5),
  );
  if (next_steps.length === 0) next_steps.push('Add the next stories to estimate.');
  return { summary, highlights, risks, next_steps: [...new Set(next_steps)] };
}
