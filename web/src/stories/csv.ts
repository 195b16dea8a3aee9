/** A story to add, as `POST /sessions/{code}/stories` takes it. */
export interface NewStory {
  title: string;
  description?: string;
  acceptance_criteria?: string;
}

/** RFC 4180 CSV: quoted fields may hold commas, quotes (doubled) and line breaks. Tabs work too (a spreadsheet's copy). */
export function parseCsv(text: string): string[][] {
  const delimiter = !text.includes(',') && text.includes('\t') ? '\t' : ',';
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f.trim() !== ''));
}

const TITLE_LIMIT = 200;
const TEXT_LIMIT = 10_000;
const HEADERS: Record<string, keyof NewStory> = {
  title: 'title',
  summary: 'title',
  name: 'title',
  story: 'title',
  description: 'description',
  details: 'description',
  acceptance_criteria: 'acceptance_criteria',
  'acceptance criteria': 'acceptance_criteria',
  criteria: 'acceptance_criteria',
};

/**
 * Stories from pasted CSV. With a header row naming the columns (title, description, acceptance
 * criteria), those columns; without one, title, description and acceptance criteria in that order.
 * Rows the API would refuse are listed with their line, not sent.
 */
export function storiesFromCsv(text: string): { stories: NewStory[]; problems: string[] } {
  const rows = parseCsv(text.replace(/^\uFEFF/, ''));
  const first = rows[0]?.map((h) => HEADERS[h.trim().toLowerCase()]);
  const header = first?.includes('title') ? first : undefined;
  const columns = header ?? (['title', 'description', 'acceptance_criteria'] as const);
  const stories: NewStory[] = [];
  const problems: string[] = [];
  rows.slice(header ? 1 : 0).forEach((row, i) => {
    const line = i + (header ? 2 : 1);
    const story: NewStory = { title: '' };
    columns.forEach((key, c) => {
      const value = row[c]?.trim();
      if (key && value) story[key] = value;
    });
    if (!story.title) problems.push(`line ${line}: no title`);
    else if (story.title.length > TITLE_LIMIT)
      problems.push(`line ${line}: title over ${TITLE_LIMIT} characters`);
    else if (
      (story.description?.length ?? 0) > TEXT_LIMIT ||
      (story.acceptance_criteria?.length ?? 0) > TEXT_LIMIT
    )
      problems.push(`line ${line}: text over ${TEXT_LIMIT} characters`);
    else stories.push(story);
  });
  return { stories, problems };
}
