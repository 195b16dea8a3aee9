import type { ExternalIssue } from '../../domain/issues.ts';

export const issueView = (i: ExternalIssue) => ({
  external_id: i.externalId,
  title: i.title,
  description: i.description,
  acceptance_criteria: i.acceptanceCriteria,
  url: i.url,
  labels: i.labels,
  estimate: i.estimate,
});
export type IssueView = ReturnType<typeof issueView>;

/** A preview item as a client sends it back to import. */
export const issueOf = (v: Partial<IssueView> & { external_id: string; title: string }): ExternalIssue => ({
  externalId: v.external_id,
  title: v.title,
  description: v.description ?? '',
  acceptanceCriteria: v.acceptance_criteria ?? '',
  url: v.url ?? null,
  labels: v.labels ?? [],
  estimate: v.estimate ?? null,
});
