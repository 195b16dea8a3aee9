import type { KeptVote } from './vote-names.ts';

export interface ExportedStory {
  id: string;
  position: number;
  title: string;
  description: string;
  acceptance_criteria: string;
  status: string;
  final_estimate: string | null;
  revealed_at: string | null;
  votes: KeptVote[];
}

export const CSV_HEADER = [
  'position',
  'id',
  'title',
  'description',
  'acceptance_criteria',
  'status',
  'final_estimate',
  'revealed_at',
  'votes_count',
  'votes',
];

/** "Ann: 5; Bob: 8", or "5; 8" when names are not recorded. */
export function votesCell(votes: readonly KeptVote[]): string {
  return votes
    .map((v) => (v.participant.name !== null ? `${v.participant.name}: ${v.value}` : v.value))
    .join('; ');
}

/** One row per story, after the header row. */
export function exportRows(stories: readonly ExportedStory[]): Array<Array<string | number | null>> {
  return [
    CSV_HEADER,
    ...stories.map((s) => [
      s.position,
      s.id,
      s.title,
      s.description,
      s.acceptance_criteria,
      s.status,
      s.final_estimate,
      s.revealed_at,
      s.votes.length,
      votesCell(s.votes),
    ]),
  ];
}
