import { statementRows, type EntityManager, type PreparedStatement } from '@pp/db';
import { rows } from './sql.ts';

/** Which story an external issue became in a session: the key of an import's idempotency, and where a sync writes. */
export interface ImportedStory {
  sessionId: string;
  source: string;
  externalId: string;
  storyId: string;
  provider: string;
  connectionId: string | null;
  url: string | null;
}

const rowOf = (r: Record<string, unknown>): ImportedStory => ({
  sessionId: r.session_id as string,
  source: r.source as string,
  externalId: r.external_id as string,
  storyId: r.story_id as string,
  provider: r.provider as string,
  connectionId: (r.connection_id as string | null) ?? null,
  url: (r.url as string | null) ?? null,
});

const COLUMNS = 'session_id, source, external_id, story_id, provider, connection_id, url';

/** Records imported stories; one already recorded is kept as it was. */
export async function recordImported(em: EntityManager, imported: ImportedStory[], now: Date): Promise<void> {
  if (imported.length === 0) return;
  await rows(
    em,
    `insert into imported_stories (${COLUMNS}, created_at)
     select i.session_id, i.source, i.external_id, i.story_id, i.provider, i.connection_id, i.url, ?::timestamptz
       from jsonb_to_recordset(?::jsonb) as i(session_id uuid, source text, external_id text, story_id uuid,
                                             provider text, connection_id uuid, url text)
     on conflict do nothing`,
    [
      now,
      JSON.stringify(
        imported.map((i) => ({
          session_id: i.sessionId,
          source: i.source,
          external_id: i.externalId,
          story_id: i.storyId,
          provider: i.provider,
          connection_id: i.connectionId,
          url: i.url,
        })),
      ),
    ],
  );
}

/** The imported stories of a session (of these stories only, when given). */
export async function importedInSession(em: EntityManager, sessionId: string, storyIds?: string[]) {
  const found = storyIds
    ? await rows(
        em,
        `select ${COLUMNS} from imported_stories where session_id = ? and story_id = any(?::uuid[])`,
        [sessionId, `{${storyIds.join(',')}}`],
      )
    : await rows(em, `select ${COLUMNS} from imported_stories where session_id = ? order by created_at`, [
        sessionId,
      ]);
  return found.map(rowOf);
}

const IMPORTED_STORY: PreparedStatement = {
  name: 'integrations.imported-story',
  text: `select ${COLUMNS} from imported_stories where story_id = $1::uuid limit 1`,
};

/** The import a story came from, if any: asked on reveals (see mayBeImported), so prepared once per connection. */
export async function importedStory(em: EntityManager, storyId: string) {
  const [found] = await statementRows<Record<string, unknown>>(em, IMPORTED_STORY, [storyId]);
  return found ? rowOf(found) : undefined;
}
