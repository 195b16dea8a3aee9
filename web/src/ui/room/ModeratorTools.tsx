import { t } from '../../i18n/i18n.ts';
import { useState } from 'preact/hooks';
import { analytics as loadAnalytics, exportStories, updateSession } from '../../api/endpoints.ts';
import type { Analytics } from '../../api/types.ts';
import type { RoomState } from '../../room/room-state.ts';
import { BarChart, CheckField, Problem, useAction } from '../common.tsx';

/** The owner's tools: analytics with charts, the export, and the session's settings. */
export function ModeratorTools({
  state,
  token,
  onChanged,
}: {
  state: RoomState;
  token: string;
  onChanged(): void;
}) {
  return (
    <>
      <AnalyticsPanel
        code={state.session.code}
        token={token}
        revealed={state.stories.filter((s) => s.status === 'revealed').length}
      />
      <ExportPanel code={state.session.code} token={token} />
      <SettingsPanel state={state} token={token} onChanged={onChanged} />
    </>
  );
}

function AnalyticsPanel({ code, token, revealed }: { code: string; token: string; revealed: number }) {
  const [data, setData] = useState<Analytics | null>(null);
  const action = useAction();
  const load = () => void action.run(async () => setData((await loadAnalytics(code, token)).analytics));
  return (
    <section class="panel" aria-labelledby="analytics-title">
      <h2 id="analytics-title">{t().analytics}</h2>
      <button type="button" disabled={action.busy} onClick={load}>
        {data ? t().refreshAnalytics : t().showAnalytics}
      </button>
      <Problem error={action.error} />
      {data && (
        <div class="analytics" data-revealed={revealed}>
          <p>{t().estimatedOf(data.totals.revealed, data.totals.stories, data.totals.points)}</p>
          <BarChart title={t().finalEstimates} rows={data.distribution} />
          <BarChart title={t().allVotes} rows={data.vote_distribution} />
          {data.history.length > 0 && (
            <table class="history">
              <caption>{t().history}</caption>
              <thead>
                <tr>
                  <th scope="col">{t().story}</th>
                  <th scope="col">{t().estimate}</th>
                  <th scope="col">{t().agreement}</th>
                </tr>
              </thead>
              <tbody>
                {data.history.map((h) => (
                  <tr key={h.story_id}>
                    <td>{h.title}</td>
                    <td>{h.final_estimate ?? '–'}</td>
                    <td>{h.agreement === null ? '–' : `${Math.round(h.agreement * 100)} %`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {data.outliers.length > 0 && (
            <>
              <h3>{t().outliers}</h3>
              <ul class="plain">
                {data.outliers.map((o, i) => (
                  <li key={i}>
                    {t().outlier(
                      o.participant.name ?? t().someone,
                      o.value,
                      o.title,
                      String(o.final_estimate),
                    )}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </section>
  );
}

/** Downloads what the API exports (it needs the owner's token, so not a plain link). */
function ExportPanel({ code, token }: { code: string; token: string }) {
  const action = useAction();
  const download = (format: 'csv' | 'json') =>
    void action.run(async () => {
      const blob = await exportStories(code, token, format);
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = `session-${code}-stories.${format}`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    });
  return (
    <section class="panel" aria-labelledby="export-title">
      <h2 id="export-title">{t().exportTitle}</h2>
      <div class="row">
        <button type="button" disabled={action.busy} onClick={() => download('csv')}>
          {t().downloadCsv}
        </button>
        <button type="button" disabled={action.busy} onClick={() => download('json')}>
          {t().downloadJson}
        </button>
      </div>
      <Problem error={action.error} />
    </section>
  );
}

function SettingsPanel({ state, token, onChanged }: { state: RoomState; token: string; onChanged(): void }) {
  const { session } = state;
  const action = useAction();
  const change = (body: Parameters<typeof updateSession>[2]) =>
    void action.run(async () => {
      await updateSession(session.code, token, body);
      onChanged();
    });
  return (
    <details class="panel settings">
      <summary>{t().settings}</summary>
      <CheckField
        label={t().autoReveal}
        name="auto-reveal"
        checked={!!session.auto_reveal}
        disabled={action.busy}
        onValue={(v) => change({ auto_reveal: v })}
      />
      <CheckField
        label={t().namedVotes}
        name="named-votes"
        checked={!!session.record_vote_names}
        disabled={action.busy}
        onValue={(v) => change({ record_vote_names: v })}
      />
      {session.voteby_enabled && (
        <button
          type="button"
          disabled={action.busy}
          onClick={() => change({ voteby_enabled: false, vote_by_at: null })}
        >
          {t().removeDeadline}
        </button>
      )}
      <Problem error={action.error} />
    </details>
  );
}
