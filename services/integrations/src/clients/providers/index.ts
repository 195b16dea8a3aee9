import type { ImportProviderId } from '../../domain/providers.ts';
import type { AdapterDeps, IssueAdapter } from './adapter.ts';
import { azureDevopsAdapter } from './azure-devops.adapter.ts';
import { githubAdapter } from './github.adapter.ts';
import { jiraAdapter } from './jira.adapter.ts';
import { linearAdapter } from './linear.adapter.ts';
import { notionAdapter } from './notion.adapter.ts';
import type { createProviderKit } from './provider-http.ts';
import { trelloAdapter } from './trello.adapter.ts';

export interface AdapterSettings {
  LINEAR_API_URL: string;
  TRELLO_API_URL: string;
  NOTION_API_URL: string;
  JIRA_CLOUD_API_URL: string;
  TRELLO_BACKOFF_MS: number;
}

/** One adapter per tracker, all on the same guarded HTTP kit. */
export function createAdapters(
  kit: ReturnType<typeof createProviderKit>,
  settings: AdapterSettings,
): Record<ImportProviderId, IssueAdapter> {
  const deps = (provider: string, extra: Partial<AdapterDeps> = {}): AdapterDeps => ({
    http: (options) => kit({ ...options, provider }),
    ...extra,
  });
  return {
    github: githubAdapter(deps('GitHub')),
    jira: jiraAdapter({ ...deps('Jira'), cloudApiUrl: settings.JIRA_CLOUD_API_URL }),
    linear: linearAdapter(deps('Linear', { apiUrl: settings.LINEAR_API_URL })),
    azure_devops: azureDevopsAdapter(deps('Azure DevOps')),
    trello: trelloAdapter(
      deps('Trello', { apiUrl: settings.TRELLO_API_URL, backoffMs: settings.TRELLO_BACKOFF_MS }),
    ),
    notion: notionAdapter(deps('Notion', { apiUrl: settings.NOTION_API_URL })),
  };
}
