import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import type { ExternalIssue } from './issues.ts';

/** The most rows one CSV may hold, and the largest text (in characters). */
export const CSV_MAX_ROWS = 1_000;
export const CSV_MAX_CHARS = 1_000_000;

type Column = 'title' | 'description' | 'acceptance_criteria' | 'external_id' | 'url' | 'labels';

/** Header names as people write them (any case, spaces or dashes for underscores). */
const ALIASES: Record<string, Column> = {
  title: 'title',
  summary: 'title',
  name: 'title',
  description: 'description',
  acceptance_criteria: 'acceptance_criteria',
  external_id: 'external_id',
  id: 'external_id',
  key: 'external_id',
  url: 'url',
  link: 'url',
  labels: 'labels',
  tags: 'labels',
};
const LIMITS: Partial<Record<Column, number>> = {
  title: 200,
  description: 10_000,
  acceptance_criteria: 10_000,
  external_id: 200,
  url: 2_000,
};

/** A CSV that cannot be imported: what is wrong, by line (1 is the header). */
export class CsvProblem extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(problems.join('; '));
    this.problems = problems;
  }
}

const columnOf = (header: string): Column | undefined =>
  ALIASES[
    header
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_')
  ];

/** An id for a row without one: the same text gets the same id, so importing the file again adds nothing. */
function derivedId(row: Record<Column, string>, seen: Map<string, number>): string {
  const digest = createHash('sha256')
    .update([row.title, row.description, row.acceptance_criteria].join('\u0000'))
    .digest('hex')
    .slice(0, 16);
  const n = (seen.get(digest) ?? 0) + 1;
  seen.set(digest, n);
  return n === 1 ? `csv-${digest}` : `csv-${digest}-${n}`;
}

/**
 * RFC 4180 text with a header row: `title` required; `description`, `acceptance_criteria`,
 * `external_id`, `url`, `labels` (`;`-separated) optional; each of them once; other columns ignored.
 * A byte order mark is dropped; quoted fields may hold commas, quotes ("") and line breaks. Throws
 * CsvProblem naming the line of each problem (up to 20).
 */
export function parseCsvIssues(text: string): ExternalIssue[] {
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text, { bom: true, info: true, skip_empty_lines: true }) as unknown as typeof records;
  } catch (err) {
    const e = err as { lines?: number; message?: string };
    const reason = (e.message ?? 'unreadable').replace(/\s*(at|on) line \d+\.?$/, '');
    throw new CsvProblem([`line ${e.lines ?? 1}: ${reason}`]);
  }
  const [header, ...rows] = records;
  if (!header) throw new CsvProblem(['line 1: the file is empty; it needs a header row with a title column']);
  const columns = header.record.map(columnOf);
  if (!columns.includes('title'))
    throw new CsvProblem([`line 1: no title column (found: ${header.record.join(', ').slice(0, 200)})`]);
  // two headers of one column (`title` twice, `title` and `name`): which one holds it is not ours to guess
  const repeated = [...new Set(columns.filter((c, i) => c !== undefined && columns.indexOf(c) !== i))];
  if (repeated.length > 0)
    throw new CsvProblem(
      repeated.map((column) => {
        const names = header.record.filter((_, i) => columns[i] === column);
        return `line 1: more than one ${column} column (${names.join(', ').slice(0, 200)})`;
      }),
    );
  if (rows.length > CSV_MAX_ROWS)
    throw new CsvProblem([`line ${rows[CSV_MAX_ROWS]!.info.lines}: more than ${CSV_MAX_ROWS} rows`]);

  const problems: string[] = [];
  const issues: ExternalIssue[] = [];
  const ids = new Map<string, number>();
  const digests = new Map<string, number>();
  let previousEnd = header.info.lines;
  for (const { record, info } of rows) {
    const line = previousEnd + 1;
    previousEnd = info.lines;
    const row = { title: '', description: '', acceptance_criteria: '', external_id: '', url: '', labels: '' };
    columns.forEach((column, i) => {
      if (column) row[column] = (record[i] ?? '').trim();
    });
    if (!row.title) problems.push(`line ${line}: the title is empty`);
    for (const [column, max] of Object.entries(LIMITS))
      if (row[column as Column].length > max)
        problems.push(`line ${line}: ${column} is longer than ${max} characters`);
    const externalId = row.external_id || derivedId(row, digests);
    const first = ids.get(externalId);
    if (first !== undefined) problems.push(`line ${line}: external_id ${externalId} repeats line ${first}`);
    ids.set(externalId, line);
    if (problems.length >= 20) break;
    issues.push({
      externalId,
      title: row.title,
      description: row.description,
      acceptanceCriteria: row.acceptance_criteria,
      url: row.url || null,
      labels: row.labels
        .split(';')
        .map((l) => l.trim())
        .filter(Boolean),
      estimate: null,
    });
  }
  if (problems.length > 0) throw new CsvProblem(problems);
  return issues;
}
