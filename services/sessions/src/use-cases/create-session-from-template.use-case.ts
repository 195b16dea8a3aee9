import { randomUUID } from 'node:crypto';
import { ServiceUnavailableError } from '@pp/http';
import { createSession, type CreateSessionInput } from './create-session.use-case.ts';
import type { SessionsContext } from './shared/context.ts';
import { discardSessions, confirmSession } from './shared/provisional.ts';
import { factsOf } from './shared/session-facts.ts';
import { findTemplate } from './shared/templates.ts';

/**
 * A session with the template's settings (below what the request names) and its stories in order, the
 * first one open for votes. The session is made first, provisional (not listed, not announced); then
 * the stories unit adds the stories in one change, which tells this unit the round; only then is the
 * session confirmed and announced, and the answer given, so the next lookup and vote see it all. No
 * transaction is open across the call. If the stories cannot be added, the session is discarded and
 * the caller gets the error (503 when the stories unit cannot be reached).
 */
export async function createSessionFromTemplate(
  ctx: SessionsContext,
  ownerId: string,
  rawTemplateId: string,
  input: Omit<CreateSessionInput, 'name'> & { name?: string },
) {
  const template = await findTemplate(ctx.em, ownerId, rawTemplateId);
  const body = {
    ...input,
    name: input.name ?? template.name,
    description: input.description ?? template.description,
  };
  const provisional = template.stories.length > 0;
  const created = await createSession(ctx, ownerId, body, { template: template.settings, provisional });
  if (!provisional) return { session: created, facts: await factsOf(ctx.em, created), stories: [] };

  let stories;
  try {
    stories = await ctx.stories.addStories(
      created.id,
      template.stories.map((s) => ({ id: randomUUID(), ...s })),
    );
  } catch (err) {
    // If even this fails (the database), the session stays provisional, and the task that discards
    // sessions left so takes it back later.
    await discardSessions(ctx.em.fork(), { id: created.id }).catch(() => undefined);
    ctx.publish();
    throw err;
  }
  const session = await confirmSession(ctx.em.fork(), created.id);
  if (!session) throw new ServiceUnavailableError('The session could not be made in time, try again');
  ctx.publish();
  return { session, facts: await factsOf(ctx.em, created), stories };
}
