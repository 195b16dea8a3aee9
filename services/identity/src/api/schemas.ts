import { characters } from '@pp/contracts';
import { z } from 'zod';

/**
 * The identity service's public API as zod schemas: the routes validate with them and the gateway
 * builds its OpenAPI document from them (payloads are the resource-named keys of the envelope).
 */
export const isoDate = z.iso.datetime({ offset: true });

export const registerBody = z
  .strictObject({
    email: z.email().max(320),
    password: characters(256, { min: 8 }),
    name: characters(100, { trim: true, min: 1 }),
  })
  .meta({ id: 'RegisterRequest' });

export const loginBody = z
  .strictObject({ email: z.string().trim().min(1).max(320), password: z.string().min(1).max(256) })
  .meta({ id: 'LoginRequest' });

export const createTokenBody = z
  .strictObject({
    name: characters(100, { trim: true, min: 1 }),
    kind: z.enum(['api', 'mcp']),
    expires_at: isoDate.optional().meta({
      description:
        'Optional end of life (a moment in the future, with its offset, e.g. `2026-12-31T00:00:00Z`); without it the token lives until revoked',
    }),
  })
  .meta({ id: 'CreateTokenRequest' });

export const introspectBody = z.object({ token: z.string().max(512) });
export const tokenIdParams = z.object({ id: z.string().meta({ description: 'Token id' }) });
export const providerParams = z.object({
  provider: z.string().meta({ description: 'Sign-on provider id, e.g. github or google' }),
});
export const callbackQuery = z.object({
  code: z.string().max(2048).optional(),
  state: z.string().max(512).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(1024).optional(),
});

export const user = z
  .object({
    id: z.uuid(),
    email: z.string(),
    name: z.string(),
    email_verified: z.boolean(),
    created_at: isoDate,
  })
  .meta({ id: 'User' });

export const personalToken = z
  .object({
    id: z.uuid(),
    name: z.string(),
    kind: z.enum(['access', 'api', 'mcp']),
    prefix: z.string().meta({ description: 'The first characters of the secret, to tell tokens apart' }),
    created_at: isoDate,
    expires_at: isoDate
      .nullable()
      .meta({ description: 'When the token stops working; null: it works until revoked' }),
    last_used_at: isoDate.nullable(),
  })
  .meta({ id: 'Token' });

export const createdToken = personalToken
  .extend({
    token: z.string().meta({
      description: 'The secret: shown in this answer only, send it as `Authorization: Bearer <token>`',
    }),
  })
  .meta({ id: 'CreatedToken' });

export const authPayload = z.object({
  user,
  token: z.string().meta({ description: 'Access token: send it as `Authorization: Bearer <token>`' }),
  token_type: z.literal('Bearer'),
  expires_at: isoDate,
});

export const provider = z.object({ id: z.string(), name: z.string() }).meta({ id: 'SignOnProvider' });
