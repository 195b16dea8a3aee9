import { defineEntity, p } from '@pp/db';

/** Access, API and MCP tokens: only the SHA-256 of the secret is kept. */
const TokenSchema = defineEntity({
  name: 'Token',
  tableName: 'tokens',
  properties: {
    id: p.uuid().primary(),
    userId: p.uuid(),
    kind: p.string(),
    name: p.string(),
    secretHash: p.string().unique(),
    prefix: p.string(),
    createdAt: p.datetime(),
    expiresAt: p.datetime().nullable(),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});
export class Token extends TokenSchema.class {}
TokenSchema.setClass(Token);
