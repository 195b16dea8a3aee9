import { t } from '../../i18n/i18n.ts';
import { useState } from 'preact/hooks';
import { ApiError } from '../../api/client.ts';
import { addStory } from '../../api/endpoints.ts';
import { storiesFromCsv } from '../../stories/csv.ts';
import { Field, Problem, useAction } from '../common.tsx';

/** How long to wait on a 429 that names no time. */
const DEFAULT_WAIT_S = 10;

/**
 * Adds one story; on a 429 (one request per row soon meets the rate limit, 60 a minute by
 * default) waits as long as the API says and tries again, so a long backlog goes in whole and each
 * row once, rather than stopping halfway with the added rows still in the box to paste again.
 */
async function addWaiting(add: () => Promise<unknown>, waiting: (seconds: number | null) => void) {
  for (;;) {
    try {
      await add();
      return waiting(null);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 429) throw err;
      const seconds = Math.max(1, err.retryAfter ?? DEFAULT_WAIT_S);
      waiting(seconds);
      await new Promise((r) => setTimeout(r, seconds * 1000));
    }
  }
}

/**
 * Pasted CSV, added one story at a time through the same call as the form (in order, so the queue
 * keeps the rows' order); a failure stops there and says how many went in.
 */
export function ImportCsv({ code, token, onChanged }: { code: string; token: string; onChanged(): void }) {
  const [text, setText] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const action = useAction();
  const { stories, problems } = storiesFromCsv(text);
  const submit = (e: Event) => {
    e.preventDefault();
    setDone(null);
    let added = 0;
    const waiting = (seconds: number | null) =>
      setDone(seconds === null ? null : t().importSlowingDown(added, stories.length, seconds));
    void action
      .run(async () => {
        for (const story of stories) {
          await addWaiting(() => addStory(code, token, story), waiting);
          added++;
        }
      })
      .then((ok) => {
        setDone(ok ? t().importAdded(added) : t().importAddedBeforeError(added));
        if (ok) setText('');
        if (added) onChanged();
      });
  };
  return (
    <details class="import">
      <summary>{t().importTitle}</summary>
      <form onSubmit={submit}>
        <Field label={t().csv} hint={t().csvHint}>
          <textarea name="csv" rows={5} value={text} onInput={(e) => setText(e.currentTarget.value)} />
        </Field>
        {problems.length > 0 && (
          <ul class="problems" aria-label={t().csvProblems}>
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        )}
        <button type="submit" disabled={action.busy || stories.length === 0}>
          {t().importCount(stories.length)}
        </button>
        <Problem error={action.error} />
        {done && <p role="status">{done}</p>}
      </form>
    </details>
  );
}
