import { isUuid } from '@pp/contracts';
import { inTurn } from '@pp/db';
import { issuesToErrors, LimitReachedError, ownedBy, ValidationError } from '@pp/http';
import { checkOutboundUrl, OutboundRefusedError } from '@pp/outbound';
import { findConnection, insertConnection, type ConnectionRow } from '../../db/connection.repository.ts';
import { credentialsBinding } from '../../domain/credentials-cipher.ts';
import {
  fieldsSchema,
  isImportProvider,
  providerSpec,
  type FieldSpec,
  type ProviderSpec,
} from '../../domain/providers.ts';
import { ConnectionNotFoundError, fieldError } from '../../errors.ts';
import type { IntegrationsContext } from './context.ts';

/** Tracker connections per account: plenty for every tracker and project, and a list that stays short. */
const CONNECTIONS_PER_ACCOUNT = 100;

/**
 * Stores a new connection, unless its owner has as many as an account may (409 too_many_connections).
 * An owner's connections are stored in turn, so that a burst of them at once stops at the limit too.
 */
export async function storeConnection(ctx: IntegrationsContext, row: ConnectionRow): Promise<void> {
  const stored = await inTurn(ctx.em, `connections-of:${row.ownerId}`, (tx) =>
    insertConnection(tx, row, CONNECTIONS_PER_ACCOUNT),
  );
  if (!stored) throw new LimitReachedError('connections', CONNECTIONS_PER_ACCOUNT, 'tracker connections');
}

/** The caller's connection: 404 for an id that names none, 403 for someone else's. */
export async function ownedConnection(
  ctx: IntegrationsContext,
  userId: string,
  id: string,
): Promise<ConnectionRow> {
  if (!isUuid(id)) throw new ConnectionNotFoundError();
  const found = await findConnection(ctx.em, id.toLowerCase());
  return ownedBy(found, userId, 'connection', () => new ConnectionNotFoundError());
}

export function specOf(provider: string): ProviderSpec {
  const spec = providerSpec(provider);
  if (!spec) throw fieldError('provider', 'unknown provider');
  return spec;
}

/** The provider's fields of one group, checked: the listed ones only, each of its type (422 naming it). */
export function checkedFields(
  spec: ProviderSpec,
  group: 'credentials' | 'settings',
  value: Record<string, unknown> | undefined,
  options: { partial?: boolean } = {},
): Record<string, unknown> {
  const parsed = fieldsSchema(spec, group, options).safeParse(value ?? {});
  if (!parsed.success) throw new ValidationError(issuesToErrors(parsed.error.issues, group));
  return parsed.data;
}

/** The fields of a group the registry types as URLs, with the values given. */
const urlFields = (spec: ProviderSpec, group: FieldSpec['group'], values: Record<string, unknown>) =>
  spec.fields
    .filter((f) => f.group === group && f.type === 'url' && typeof values[f.name] === 'string')
    .map((f) => ({ field: f.name, url: values[f.name] as string }));

/**
 * Every address a connection names is one the platform may call (checked again at each connection):
 * a tracker's addresses in its settings, and the URL fields of either group, a secret one (a Slack
 * webhook) too. A 422 names the field.
 */
export async function checkConnectionUrls(
  ctx: IntegrationsContext,
  spec: ProviderSpec,
  given: { settings?: Record<string, unknown>; credentials?: Record<string, unknown> },
) {
  const { settings, credentials } = given;
  const inSettings = !settings
    ? []
    : isImportProvider(spec.id)
      ? ctx.adapters[spec.id].urls(settings)
      : urlFields(spec, 'settings', settings);
  const urls = [
    ...inSettings.map((u) => ({ ...u, field: `settings.${u.field}` })),
    ...urlFields(spec, 'credentials', credentials ?? {}).map((u) => ({
      ...u,
      field: `credentials.${u.field}`,
    })),
  ];
  for (const { field, url } of urls) {
    try {
      await checkOutboundUrl(url, ctx.outbound);
    } catch (err) {
      if (err instanceof OutboundRefusedError) throw fieldError(field, err.message);
      throw err;
    }
  }
}

export const encryptCredentials = (
  ctx: IntegrationsContext,
  c: Pick<ConnectionRow, 'id' | 'ownerId' | 'provider'>,
  credentials: Record<string, unknown>,
) => ctx.cipher.encrypt(JSON.stringify(credentials), credentialsBinding(c));

export const decryptCredentials = (ctx: IntegrationsContext, c: ConnectionRow): Record<string, string> =>
  JSON.parse(ctx.cipher.decrypt(c.credentials, credentialsBinding(c))) as Record<string, string>;
