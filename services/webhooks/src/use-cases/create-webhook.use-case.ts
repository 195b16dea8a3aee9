import { randomUUID } from 'node:crypto';
import { inTurn } from '@pp/db';
import { LimitReachedError } from '@pp/http';
import { insertWebhook } from '../db/webhook.repository.ts';
import type { WebhookKind } from '../domain/chat-formats.ts';
import { newSecret } from '../domain/signature.ts';
import { WEBHOOKS_PER_ACCOUNT, type WebhooksContext } from './shared/context.ts';
import { checkTargetUrl, normaliseEvents, ownSession } from './shared/targets.ts';

export interface NewWebhookInput {
  url: string;
  events: string[];
  kind: WebhookKind;
  session_code?: string;
}

/** Registers a webhook of the caller; its secret is in the answer, and only there. */
export async function createWebhook(ctx: WebhooksContext, ownerId: string, input: NewWebhookInput) {
  const url = await checkTargetUrl(ctx, input.url);
  const session = input.session_code ? await ownSession(ctx, ownerId, input.session_code) : undefined;
  const id = randomUUID();
  const secret = newSecret();
  // An owner's webhooks are registered in turn, so that a burst of them at once stops at the limit too.
  const webhook = await inTurn(ctx.em, `webhooks-of:${ownerId}`, (tx) =>
    insertWebhook(
      tx,
      {
        id,
        ownerId,
        url,
        kind: input.kind,
        events: normaliseEvents(input.events),
        sessionId: session?.sessionId ?? null,
        sessionCode: session?.code ?? null,
        secretSealed: ctx.secrets.seal(secret, id),
      },
      WEBHOOKS_PER_ACCOUNT,
    ),
  );
  if (!webhook) throw new LimitReachedError('webhooks', WEBHOOKS_PER_ACCOUNT);
  ctx.webhooksChanged?.();
  return { webhook, secret };
}
