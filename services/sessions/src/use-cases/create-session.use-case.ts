import { randomUUID } from 'node:crypto';
import { isUniqueViolation } from '@pp/db';
import { ValidationError } from '@pp/http';
import { Session } from '../db/entities/index.ts';
import { ensureWorkspace } from '../db/workspace.repository.ts';
import { newSessionSettings, type PresetSettings } from '../domain/presets.ts';
import { settingsProblems, type SessionSettings } from '../domain/session-settings.ts';
import type { SessionsContext } from './shared/context.ts';
import { checkLinks, withLinks } from './shared/links.ts';
import { announce } from './shared/room-history.ts';
import { entityValues, settingsIn, type SessionFieldsInput } from './shared/session-fields.ts';
import { toSnapshot } from './shared/session-snapshot.ts';

const MAX_ATTEMPTS = 5;

/** A name, and any other settable field; unset settings come from the template, then the workspace. */
export type CreateSessionInput = Omit<SessionFieldsInput, 'status'> & { name: string };

export interface CreateSessionOptions {
  /** The settings of the template the session is made from. */
  template?: Partial<PresetSettings>;
  /** Not listed nor announced until its stories are in (a session made from a template). */
  provisional?: boolean;
}

/**
 * Creates an active session with a fresh code, in the owner's workspace (made on first use), and
 * announces session.created in the same commit (a provisional session: once confirmed). Each setting
 * is what the request names, else the template's, else the workspace's default, else the product's.
 */
export async function createSession(
  ctx: SessionsContext,
  ownerId: string,
  input: CreateSessionInput,
  options: CreateSessionOptions = {},
) {
  const now = ctx.now();
  const workspace = await ensureWorkspace(ctx.em, ownerId, now);
  await checkLinks(ctx.em, ownerId, input);
  const given = settingsIn(entityValues(input));
  const settings = newSessionSettings(
    given,
    { template: options.template, workspace: workspace.defaults },
    now,
  );
  const problems = settingsProblems(
    settings,
    new Set(Object.keys(given) as Array<keyof SessionSettings>),
    now,
  );
  if (Object.keys(problems).length > 0) throw new ValidationError(problems);

  for (let attempt = 1; ; attempt++) {
    // A fresh unit of work per attempt: a code collision fails the whole flush.
    const em = ctx.em.fork();
    const session = em.create(Session, {
      id: randomUUID(),
      code: ctx.newCode(),
      ownerId,
      name: input.name,
      description: input.description ?? '',
      status: 'active',
      workspaceId: input.workspace_id === undefined ? workspace.id : input.workspace_id,
      folderId: input.folder_id ?? null,
      ...settings,
      provisionalSince: options.provisional ? now : null,
      createdAt: now,
      updatedAt: now,
    });
    if (!options.provisional) announce(em, 'session.created', { session: toSnapshot(session) });
    try {
      await withLinks(() => em.flush());
    } catch (err) {
      if (isUniqueViolation(err) && attempt < MAX_ATTEMPTS) continue;
      throw err;
    }
    ctx.publish();
    return session;
  }
}
