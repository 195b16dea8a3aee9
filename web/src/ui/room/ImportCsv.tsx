import { useState } from 'preact/hooks';
import { importCsv, previewCsv } from '../../api/endpoints.ts';
import type { ExternalIssue } from '../../api/types.ts';
import { t } from '../../i18n/i18n.ts';
import { Field, Problem, useAction } from '../common.tsx';

const COLUMNS = ['title', 'description', 'acceptance_criteria'];

/**
 * Pasted rows without a header are read as title, description and acceptance criteria: the header
 * the API's CSV import needs goes before them, as wide as the first row (the API holds every row to
 * it, and names a row that differs). A first row that names a `title` column is a header.
 */
export function withHeader(text: string): string {
  const first = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  // Its cells: the commas outside quotes split them.
  const cells = [''];
  let quoted = false;
  for (const c of first) {
    if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) cells.push('');
    else cells[cells.length - 1] += c;
  }
  if (cells.some((c) => c.trim().toLowerCase() === 'title')) return text;
  return `${COLUMNS.slice(0, Math.min(cells.length, COLUMNS.length)).join(',')}\n${text}`;
}

/**
 * Pasted CSV, read by the API's CSV import: a preview of its stories first (nothing stored), then
 * the import, in one request, which adds them in order at the end of the queue (a row imported
 * before into this session is not added twice).
 */
export function ImportCsv({ code, token, onChanged }: { code: string; token: string; onChanged(): void }) {
  const [text, setText] = useState('');
  const [preview, setPreview] = useState<ExternalIssue[] | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const action = useAction();
  const m = t();
  const edit = (value: string) => {
    setText(value);
    setPreview(null);
  };
  const look = () => {
    setDone(null);
    void action.run(async () => setPreview((await previewCsv(token, withHeader(text))).issues));
  };
  const submit = (e: Event) => {
    e.preventDefault();
    if (!preview) return look();
    void action.run(async () => {
      const { stories } = await importCsv(code, token, withHeader(text));
      setDone(m.importAdded(stories.filter((s) => !s.already_imported).length));
      setText('');
      setPreview(null);
      onChanged();
    });
  };
  return (
    <details class="import">
      <summary>{m.importTitle}</summary>
      <form onSubmit={submit}>
        <Field label={m.csv} hint={m.csvHint}>
          <textarea name="csv" rows={5} value={text} onInput={(e) => edit(e.currentTarget.value)} />
        </Field>
        {preview && (
          <ol class="preview" aria-label={m.importPreview}>
            {preview.map((issue) => (
              <li key={issue.external_id}>{issue.title}</li>
            ))}
          </ol>
        )}
        {preview ? (
          <button type="submit" class="primary" disabled={action.busy || preview.length === 0}>
            {m.importCount(preview.length)}
          </button>
        ) : (
          <button type="submit" disabled={action.busy || !text.trim()}>
            {m.previewCsv}
          </button>
        )}
        <Problem error={action.error} />
        {done && <p role="status">{done}</p>}
      </form>
    </details>
  );
}
