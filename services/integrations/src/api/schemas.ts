import { pageQuery } from '@pp/http';
import { characters } from '@pp/contracts';
import { z } from 'zod';
import { providerIds } from '../domain/providers.ts';
import { CSV_MAX_CHARS, CSV_MAX_ROWS } from '../domain/csv-import.ts';
import { ESTIMATE_MAX, LABEL_MAX, LABELS_MAX, TEXT_MAX, TITLE_MAX, URL_MAX } from '../domain/issues.ts';

/** Request and response shapes of the integrations API (payloads are the resource-named keys of the envelope). */
const isoDate = z.iso.datetime({ offset: true });
const id = z.string().max(64);

export const connectionParams = z.object({ connection: id.meta({ description: 'Connection id (UUID)' }) });
export const providerParams = z.object({ provider: z.string().max(32).meta({ description: 'Provider id' }) });
export const codeParams = z.object({
  code: z.string().max(64).meta({ description: 'The 6-character session code (case-insensitive)' }),
});

const fields = z.record(z.string().max(64), z.unknown()).meta({
  description: "The provider's fields of this group (see GET /integrations/providers); any other is a 422",
});

export const createConnectionBody = z
  .strictObject({
    provider: z.enum(providerIds),
    name: characters(100, { trim: true, min: 1 })
      .optional()
      .meta({ description: "Default: the provider's name" }),
    credentials: fields.optional().meta({ description: 'Secret fields: encrypted at rest, never returned' }),
    settings: fields.optional(),
  })
  .meta({ id: 'CreateConnectionRequest' });

export const updateConnectionBody = z
  .strictObject({
    name: characters(100, { trim: true, min: 1 }).optional(),
    credentials: fields.optional().meta({ description: 'Fields given replace the stored ones' }),
    settings: fields
      .optional()
      .meta({ description: 'Fields given replace the stored ones; null removes an optional one' }),
  })
  .meta({ id: 'UpdateConnectionRequest' });

export const oauthStartQuery = z.object({
  name: characters(100, { trim: true, min: 1 })
    .optional()
    .meta({ description: 'Name of the connection to make' }),
});
export const oauthCallbackQuery = z.object({
  code: z.string().min(1).max(2_000).optional(),
  state: z.string().min(1).max(200),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2_000).optional(),
});

const connectionId = z.uuid().meta({ description: 'A tracker connection of the caller' });

export { csvText };
export const previewBody = z
  .union([
    z.strictObject({
      provider: z.literal('csv'),
      csv: z
        .string()
        .min(1)
        .max(CSV_MAX_CHARS)
        .meta({ description: `RFC 4180 text with a header row; at most ${CSV_MAX_ROWS} rows` }),
    }),
    z.strictObject({
      connection_id: connectionId,
      params: z
        .strictObject({
          limit: z
            .number()
            .int()
            .min(1)
            .max(1_000)
            .optional()
            .meta({ description: 'Issues to return (default 100)' }),
          cursor: z
            .string()
            .min(1)
            .max(2_000)
            .optional()
            .meta({ description: '`next_cursor` of the previous preview' }),
        })
        .optional(),
    }),
  ])
  .meta({
    id: 'ImportPreviewRequest',
    description: 'A CSV (`provider: csv` with its text), or a tracker connection',
  });

export const issue = z
  .object({
    external_id: z.string(),
    title: z.string(),
    description: z.string().meta({ description: 'Markdown' }),
    acceptance_criteria: z.string(),
    url: z.string().nullable(),
    labels: z.array(z.string()),
    estimate: z.string().nullable().meta({ description: 'The estimate the tracker has now' }),
  })
  .meta({ id: 'ExternalIssue' });

const issueInput = z.strictObject({
  external_id: z.string().trim().min(1).max(255),
  title: characters(TITLE_MAX, { trim: true, min: 1 }),
  description: characters(TEXT_MAX).optional(),
  acceptance_criteria: characters(TEXT_MAX).optional(),
  url: z.string().max(URL_MAX).nullable().optional(),
  // the limits of fitToStory, which every preview item is read through
  labels: z.array(characters(LABEL_MAX)).max(LABELS_MAX).optional(),
  estimate: characters(ESTIMATE_MAX).nullable().optional(),
});
const issues = z
  .array(z.union([z.string().trim().min(1).max(255), issueInput]))
  .min(1)
  .max(CSV_MAX_ROWS)
  .meta({
    description: 'Preview items (as previewed, or edited), or external ids to fetch from the tracker',
  });

const csvText = z.string().min(1).max(CSV_MAX_CHARS).meta({
  description: 'The CSV itself (as previewed): its rows are imported, or those of `issues` given as ids',
});

export const confirmBody = z
  .union([
    z
      .strictObject({ provider: z.literal('csv'), csv: csvText.optional(), issues: issues.optional() })
      .refine((b) => b.csv !== undefined || b.issues !== undefined, {
        message: 'send the csv, or the issues',
      }),
    z.strictObject({ connection_id: connectionId, issues }),
  ])
  .meta({
    id: 'ImportConfirmRequest',
    description:
      'A body holds at most 10,000 keys and array elements in all: to import many rows, send the CSV itself ' +
      "(with the external ids to keep, or none for every row), or a tracker's external ids.",
  });

export const syncBody = z
  .strictObject({
    story_ids: z
      .array(z.uuid())
      .min(1)
      .max(1_000)
      .optional()
      .meta({ description: 'Default: every imported story' }),
  })
  .meta({ id: 'SyncEstimatesRequest' });

export const syncLogsQuery = pageQuery.extend({
  session_code: z.string().max(16).optional(),
  connection_id: z.uuid().optional(),
  status: z.enum(['synced', 'failed', 'skipped']).optional(),
});

// ---- responses ----

export const provider = z
  .object({
    id: z.enum(providerIds),
    name: z.string(),
    kind: z.enum(['import', 'notification']),
    auth: z.array(z.enum(['oauth', 'token', 'none'])),
    fields: z.array(
      z.object({
        name: z.string(),
        label: z.string(),
        required: z.boolean(),
        type: z.enum(['string', 'secret', 'url', 'boolean', 'string_list']),
        secret: z.boolean().meta({ description: 'A credential: sent in `credentials`, never returned' }),
      }),
    ),
  })
  .meta({ id: 'Provider' });

export const connection = z
  .object({
    id: z.uuid(),
    provider: z.string(),
    name: z.string(),
    auth_method: z.enum(['token', 'oauth', 'none']),
    settings: z.record(z.string(), z.unknown()),
    credentials: z
      .object({ stored: z.array(z.string()), expires_at: isoDate.nullable().optional() })
      .meta({ description: 'Which credential fields the provider takes; their values are never returned' }),
    status: z.enum(['active', 'needs_reconnection']),
    account: z.string().nullable().meta({ description: 'Who the credentials belong to (after a test)' }),
    created_at: isoDate,
    updated_at: isoDate,
  })
  .meta({ id: 'Connection' });

export const importedStory = z
  .object({
    id: z.uuid(),
    title: z.string(),
    status: z.enum(['pending', 'voting', 'revealed']),
    position: z.number().int(),
    external_id: z.string(),
    url: z.string().nullable(),
    already_imported: z
      .boolean()
      .meta({ description: 'Imported into this session before and still there: not added again' }),
  })
  .meta({ id: 'ImportedStory' });

export const syncResult = z.object({
  story_id: z.string(),
  external_id: z.string().nullable(),
  provider: z.string(),
  status: z.enum(['synced', 'failed', 'skipped']),
  estimate: z.string().nullable(),
  modes: z.array(z.string()).meta({ description: 'How it was written: field, label, comment' }),
  message: z.string().nullable(),
});

export const sync = z
  .object({
    synced: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
    results: z.array(syncResult),
  })
  .meta({ id: 'SyncReport' });

export const syncLog = z
  .object({
    id: z.number().int(),
    session_id: z.uuid(),
    session_code: z.string(),
    story_id: z.string().nullable(),
    connection_id: z.string().nullable(),
    provider: z.string(),
    external_id: z.string().nullable(),
    status: z.enum(['synced', 'failed', 'skipped']),
    estimate: z.string().nullable(),
    message: z.string().nullable(),
    trigger: z.enum(['manual', 'auto']),
    created_at: isoDate,
  })
  .meta({ id: 'SyncLog' });
