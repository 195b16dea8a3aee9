import { t } from '../../i18n/i18n.ts';
import { useState } from 'preact/hooks';
import { activateStory, addStory, deleteStory, moveStory, resetStory } from '../../api/endpoints.ts';
import type { RoomStory } from '../../api/types.ts';
import type { RoomState } from '../../room/room-state.ts';
import { Problem, TextField, useAction } from '../common.tsx';
import { ImportCsv } from './ImportCsv.tsx';

const STATUS = (status: RoomStory['status']) =>
  ({ pending: t().storyWaiting, voting: t().storyVoting, revealed: t().storyDone })[status];
/** What the owner can do next with a story out of the round: open it, or vote on it again. */
const STEP: Partial<
  Record<RoomStory['status'], { label(): string; call(id: string, token: string): Promise<unknown> }>
> = {
  pending: { label: () => t().estimateNow, call: activateStory },
  revealed: { label: () => t().voteAgain, call: resetStory },
};

/** The backlog in queue order; the owner adds, imports, reorders, opens, re-votes and deletes. */
export function Stories({
  state,
  token,
  onChanged,
}: {
  state: RoomState;
  token: string | null;
  onChanged(): void;
}) {
  const action = useAction();
  const act = (call: () => Promise<unknown>) =>
    void action.run(async () => {
      await call();
      onChanged();
    });
  const { stories } = state;
  const m = t();
  return (
    <section class="panel" aria-labelledby="stories-title">
      <h2 id="stories-title">{m.storiesTitle(stories.length)}</h2>
      {stories.length === 0 && <p class="muted">{m.noStories}</p>}
      <ol class="stories" aria-label={m.storiesInOrder}>
        {stories.map((s, i) => (
          <li
            key={s.id}
            class={`story story-${s.status}`}
            aria-current={s.status === 'voting' ? 'step' : undefined}
          >
            <span class="story-title">{s.title}</span>
            <span class="muted">
              {STATUS(s.status)}
              {s.final_estimate !== null && (
                <>
                  {' '}
                  · <strong>{s.final_estimate}</strong>
                </>
              )}
            </span>
            {token && (
              <span class="story-actions">
                <button
                  type="button"
                  class="icon"
                  aria-label={m.moveUp(s.title)}
                  disabled={i === 0 || action.busy}
                  onClick={() => act(() => moveStory(s.id, token, i))}
                >
                  ↑
                </button>
                <button
                  type="button"
                  class="icon"
                  aria-label={m.moveDown(s.title)}
                  disabled={i === stories.length - 1 || action.busy}
                  onClick={() => act(() => moveStory(s.id, token, i + 2))}
                >
                  ↓
                </button>
                {STEP[s.status] && (
                  <button
                    type="button"
                    class="small"
                    disabled={action.busy}
                    onClick={() => act(() => STEP[s.status]!.call(s.id, token))}
                  >
                    {STEP[s.status]!.label()}
                  </button>
                )}
                <button
                  type="button"
                  class="icon"
                  aria-label={m.deleteStory(s.title)}
                  disabled={action.busy}
                  onClick={() => confirm(m.confirmDelete(s.title)) && act(() => deleteStory(s.id, token))}
                >
                  ✕
                </button>
              </span>
            )}
          </li>
        ))}
      </ol>
      <Problem error={action.error} />
      {token && <AddStory code={state.session.code} token={token} onChanged={onChanged} />}
      {token && <ImportCsv code={state.session.code} token={token} onChanged={onChanged} />}
    </section>
  );
}

function AddStory({ code, token, onChanged }: { code: string; token: string; onChanged(): void }) {
  const [title, setTitle] = useState('');
  const action = useAction();
  return (
    <form
      class="row"
      onSubmit={(e) => {
        e.preventDefault();
        void action.run(async () => {
          await addStory(code, token, { title: title.trim() });
          setTitle('');
          onChanged();
        });
      }}
    >
      <TextField
        label={t().newStory}
        name="story-title"
        required
        maxLength={200}
        value={title}
        onValue={setTitle}
      />
      <button type="submit" disabled={action.busy || !title.trim()}>
        {t().add}
      </button>
      <Problem error={action.error} />
    </form>
  );
}
