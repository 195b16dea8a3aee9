import { characters } from '@pp/contracts';
import { z } from 'zod';

/**
 * The providers a connection can be made to: their fields (credentials are secret, settings are not)
 * and how one signs in. The registry the API lists, and the zod schemas connections are checked with.
 */
export type ProviderId =
  'csv' | 'github' | 'linear' | 'jira' | 'azure_devops' | 'trello' | 'notion' | 'slack' | 'webhook';
export type ImportProviderId = Exclude<ProviderId, 'csv' | 'slack' | 'webhook'>;
export type AuthMethod = 'oauth' | 'token' | 'none';
export type FieldType = 'string' | 'secret' | 'url' | 'boolean' | 'string_list';

export interface FieldSpec {
  name: string;
  label: string;
  required: boolean;
  type: FieldType;
  /** Where it is kept: `credentials` are encrypted and never shown, `settings` are shown. */
  group: 'credentials' | 'settings';
}

export interface ProviderSpec {
  id: ProviderId;
  name: string;
  kind: 'import' | 'notification';
  auth: AuthMethod[];
  fields: FieldSpec[];
}

const secret = (name: string, label: string): FieldSpec => ({
  name,
  label,
  required: true,
  type: 'secret',
  group: 'credentials',
});
const setting = (name: string, label: string, type: FieldType = 'string', required = false): FieldSpec => ({
  name,
  label,
  required,
  type,
  group: 'settings',
});
const autoSync = setting(
  'auto_sync',
  'Write the final estimate back as soon as a story is revealed',
  'boolean',
);

export const PROVIDERS: readonly ProviderSpec[] = [
  {
    id: 'csv',
    name: 'CSV file',
    kind: 'import',
    auth: ['none'],
    fields: [],
  },
  {
    id: 'github',
    name: 'GitHub Issues',
    kind: 'import',
    auth: ['oauth', 'token'],
    fields: [
      secret('token', 'Personal access token (Issues: read and write)'),
      setting(
        'api_url',
        'API root (https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise Server)',
        'url',
      ),
      setting('owner', 'Repository owner (user or organization)', 'string', true),
      setting('repository', 'Repository name', 'string', true),
      setting('labels', 'Only issues with all of these labels', 'string_list'),
      setting('comment_sync', 'Write the estimate back as an issue comment (the default)', 'boolean'),
      setting('label_sync', 'Write the estimate back as an `estimate: N` label', 'boolean'),
      autoSync,
    ],
  },
  {
    id: 'linear',
    name: 'Linear',
    kind: 'import',
    auth: ['oauth', 'token'],
    fields: [
      secret('token', 'API key'),
      setting('team_id', 'Team id or key'),
      setting('project_id', 'Project id'),
      setting('state', 'Workflow state name'),
      autoSync,
    ],
  },
  {
    id: 'jira',
    name: 'Jira Cloud',
    kind: 'import',
    auth: ['oauth', 'token'],
    fields: [
      secret('email', 'Account email'),
      secret('api_token', 'API token'),
      setting('site_url', 'Site address (https://YOUR-SITE.atlassian.net)', 'url', true),
      setting('jql', 'JQL query of the issues to import (bounded, e.g. project = ABC)', 'string', true),
      setting('story_points_field', 'Story points field id (customfield_NNNNN); found by name when unset'),
      autoSync,
    ],
  },
  {
    id: 'azure_devops',
    name: 'Azure DevOps Boards',
    kind: 'import',
    auth: ['oauth', 'token'],
    fields: [
      secret('token', 'Personal access token (Work items: read and write)'),
      setting(
        'organization_url',
        'Organization address (https://dev.azure.com/ORG, or the server collection)',
        'url',
        true,
      ),
      setting('project', 'Project name', 'string', true),
      setting('wiql', 'WIQL query (default: the open work items of the project)'),
      autoSync,
    ],
  },
  {
    id: 'trello',
    name: 'Trello',
    kind: 'import',
    auth: ['token'],
    fields: [
      secret('key', 'API key'),
      secret('token', 'API token'),
      setting('board_id', 'Board id', 'string', true),
      setting('list_id', 'Only cards of this list'),
      setting('custom_field_id', 'Number custom field that takes the estimate (a comment when unset)'),
      autoSync,
    ],
  },
  {
    id: 'notion',
    name: 'Notion',
    kind: 'import',
    auth: ['oauth', 'token'],
    fields: [
      secret('token', 'Internal integration token'),
      setting('data_source_id', 'Data source id (of the database)', 'string', true),
      setting('title_property', 'Title property name (exact)', 'string', true),
      setting(
        'estimate_property',
        'Number or select property that takes the estimate (a comment when unset)',
      ),
      autoSync,
    ],
  },
  {
    id: 'slack',
    name: 'Slack',
    kind: 'notification',
    auth: ['token'],
    // a secret (the URL is the credential), and an address like any other: checked before it is stored
    fields: [{ ...secret('webhook_url', 'Incoming webhook URL'), type: 'url' }],
  },
  {
    id: 'webhook',
    name: 'Custom webhook',
    kind: 'notification',
    auth: ['none', 'token'],
    fields: [
      setting('url', 'Receiver URL', 'url', true),
      { ...secret('secret', 'Signing secret'), required: false },
    ],
  },
];

export const providerIds = PROVIDERS.map((p) => p.id) as [ProviderId, ...ProviderId[]];
export const providerSpec = (id: string): ProviderSpec | undefined => PROVIDERS.find((p) => p.id === id);
export const isImportProvider = (id: string): id is ImportProviderId =>
  providerSpec(id)?.kind === 'import' && id !== 'csv';

const text = characters(2_000, { trim: true, min: 1 });
const valueSchema: Record<FieldType, z.ZodType> = {
  string: text,
  secret: z.string().min(1).max(4_000),
  url: z.url({ protocol: /^https?$/ }).max(2_000),
  boolean: z.boolean(),
  string_list: z.array(characters(100, { trim: true, min: 1 })).max(20),
};

/**
 * The schema of a provider's credentials or settings: the listed fields only (any other is a 422).
 * `partial` for an update, where each field given replaces the stored one. Credentials are optional
 * when the connection signs in with OAuth (its tokens come from the provider).
 */
export function fieldsSchema(
  spec: ProviderSpec,
  group: FieldSpec['group'],
  options: { partial?: boolean } = {},
): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const field of spec.fields.filter((f) => f.group === group)) {
    const value = valueSchema[field.type];
    shape[field.name] = field.required && !options.partial ? value : value.optional();
  }
  return z.strictObject(shape);
}

/** The registry as the API lists it (without the internal grouping). */
export const providerView = (spec: ProviderSpec) => ({
  id: spec.id,
  name: spec.name,
  kind: spec.kind,
  auth: spec.auth,
  fields: spec.fields.map(({ name, label, required, type, group }) => ({
    name,
    label,
    required,
    type,
    secret: group === 'credentials',
  })),
});
