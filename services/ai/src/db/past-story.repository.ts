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

/**
 * Keeps a revealed story (a later reveal of the same story replaces it; an older one never does, nor
 * a reveal from before the story's last reset or deletion). One statement.
 */
export async function keepPastStory(
  em: EntityManager,
  row: PastStoryRow & { owner_id: string; revealed_at: string },
): Promise<void> {
  await preparedRows(
    em,
    {
      name: 'ai_keep_past_story',
      text: `insert into past_stories (story_id, session_id, owner_id, title, final_estimate, votes, terms, terms_version, revealed_at)
             select $1::uuid, $2::uuid, $3::text, $4::text, $5::text, $6::jsonb, $7::jsonb, $8::int, $9::timestamptz
              where not exists (select 1 from past_story_removals r
                                 where r.story_id = $1::uuid and r.removed_at >= $9::timestamptz)
             on conflict (story_id) do update set title = excluded.title, final_estimate = excluded.final_estimate,
               votes = excluded.votes, terms = excluded.terms, terms_version = excluded.terms_version,
               revealed_at = excluded.revealed_at, seq = nextval('past_stories_seq')
             where past_stories.revealed_at <= excluded.revealed_at`,
    },
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

/**
 * The story was reset or deleted at `at`: a kept reveal from before goes, and a reveal from before that
 * comes later (its event handled after this one) is not kept. One statement.
 */
export async function removePastStory(em: EntityManager, storyId: string, at: string): Promise<void> {
  await preparedRows(
    em,
    {
      name: 'ai_remove_past_story',
      text: `with gone as (delete from past_stories where story_id = $1::uuid and revealed_at <= $2::timestamptz)
             insert into past_story_removals (story_id, removed_at) values ($1::uuid, $2::timestamptz)
             on conflict (story_id) do update set removed_at = greatest(past_story_removals.removed_at, excluded.removed_at)`,
    },
    [storyId, at],
  );
}

/** Removals older than `before` (no event from before them can come any more). */
export async function forgetRemovalsBefore(em: EntityManager, before: Date): Promise<void> {
  await em.getConnection().execute('delete from past_story_removals where removed_at < ?', [before]);
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
