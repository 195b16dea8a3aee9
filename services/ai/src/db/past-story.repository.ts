import type { EntityManager } from '@pp/db';
import { preparedRows } from '@pp/db';

export interface PastStoryRow {
  story_id: string;
  session_id: string;
  title: string;
  final_estimate: string | null;
  votes: string[];
  terms: Record<string, number>;
  terms_version: number;
}

/** Keeps a revealed story (a later reveal of the same story replaces it; an older one never does). */
export async function keepPastStory(
  em: EntityManager,
  row: PastStoryRow & { owner_id: string; revealed_at: string },
): Promise<void> {
  await em.getConnection().execute(
    `insert into past_stories (story_id, session_id, owner_id, title, final_estimate, votes, terms, terms_version, revealed_at)
     values (?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?)
     on conflict (story_id) do update set title = excluded.title, final_estimate = excluded.final_estimate,
       votes = excluded.votes, terms = excluded.terms, terms_version = excluded.terms_version,
       revealed_at = excluded.revealed_at, seq = nextval('past_stories_seq')
     where past_stories.revealed_at <= excluded.revealed_at`,
    [
      row.story_id,
      row.session_id,
      row.owner_id,
      row.title.slice(0, 200),
      row.final_estimate,
      JSON.stringify(row.votes),
      JSON.stringify(row.terms),
      row.terms_version,
      row.revealed_at,
    ],
  );
}

export async function forgetPastStory(em: EntityManager, storyId: string): Promise<void> {
  await em.getConnection().execute('delete from past_stories where story_id = ?', [storyId]);
}

export async function hasPastStory(em: EntityManager, storyId: string): Promise<boolean> {
  const rows = await em.getConnection().execute('select 1 from past_stories where story_id = ?', [storyId]);
  return rows.length > 0;
}

/** Every revealed story of an owner: one prepared statement (the estimate assistant's hot path). */
export const pastStoriesOf = (em: EntityManager, ownerId: string) =>
  preparedRows<PastStoryRow>(
    em,
    {
      name: 'ai_past_stories_of_owner',
      text: `select story_id, session_id, title, final_estimate, votes, terms, terms_version
               from past_stories where owner_id = $1`,
    },
    [ownerId],
  );

/**
 * What an owner's history is now, in one index read: its size and its highest change number (any
 * change to it changes one of the two).
 */
export async function historyVersion(em: EntityManager, ownerId: string): Promise<string> {
  const [row] = await preparedRows<{ n: number; seq: string | null }>(
    em,
    {
      name: 'ai_history_version',
      text: 'select count(*)::int as n, max(seq)::text as seq from past_stories where owner_id = $1',
    },
    [ownerId],
  );
  return `${row?.n ?? 0}:${row?.seq ?? 0}`;
}
