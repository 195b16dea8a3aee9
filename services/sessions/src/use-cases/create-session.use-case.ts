import { randomUUID } from 'node:crypto';
import { isUniqueViolation } from '@pp/db';
import { ValidationError } from '@pp/http';
import { Session } from '../db/entities/index.ts';
import { settingsProblems, type SessionSettings } from '../domain/session-settings.ts';
import type { SessionsContext } from './context.ts';
import { announce } from './room-history.ts';
import { entityValues, settingsIn, type SessionFieldsInput } from './session-fields.ts';
import { toSnapshot } from './session-snapshot.ts';

const MAX_ATTEMPTS = 5;

/** A name, and any other settable field; unset settings come from the owner's defaults. */
export type CreateSessionInput = Omit<SessionFieldsInput, 'status'> & { name: string };

/** Creates an active session with a fresh code; announces session.created in the same commit. */
export async function createSession(ctx: SessionsContext, ownerId: string, input: CreateSessionInput) {
  const now = ctx.now();
  const given = settingsIn(entityValues(input));
  const settings = { ...(await ctx.defaults(ownerId)), ...given };
  const changed = new Set(Object.keys(given) as Array<keyof SessionSettings>);
  const problems = settingsProblems(settings, changed, now);
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
      workspaceId: input.workspace_id ?? null,
      folderId: input.folder_id ?? null,
      ...settings,
      createdAt: now,
      updatedAt: now,
    });
    announce(em, 'session.created', { session: toSnapshot(session) });
    try {
      await em.flush();
    } catch (err) {
      if (isUniqueViolation(err) && attempt < MAX_ATTEMPTS) continue;
      throw err;
    }
    ctx.publish();
    return session;
  }
}
