import { t } from '../../i18n/i18n.ts';
import { useState } from 'preact/hooks';
import {
  activateStory,
  addStory,
  deleteStory,
  moveStory,
  resetStory,
  type RoundRunner,
} from '../../api/endpoints.ts';
import type { RoomStory } from '../../api/types.ts';
import type { RoomState } from '../../room/room-state.ts';
import { Problem, TextField, useAction } from '../common.tsx';
import { ImportCsv } from './ImportCsv.tsx';

const STATUS = (status: RoomStory['status']) =>
  ({ pending: t().storyWaiting, voting: t().storyVoting, revealed: t().storyDone })[status];
/** What whoever runs the round can do next with a story out of it: open it, or vote on it again. */
const STEP: Partial<
  Record<RoomStory['status'], { label(): string; call(id: string, by: RoundRunner): Promise<unknown> }>
> = {
  pending: { label: () => t().estimateNow, call: activateStory },
  revealed: { label: () => t().voteAgain, call: resetStory },
};

/**
 * The backlog in queue order; the owner adds, imports, reorders and deletes; whoever runs the round
 * (the owner, or the moderator) opens a story and votes on one again.
 */
export function Stories({
  state,
  token,
  runner,
  onChanged,
}: {
  state: RoomState;
  token: string | null;
  runner: RoundRunner | null;
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
            {(token || runner) && (
              <span class="story-actions">
                {token && (
                  <MoveButtons
                    title={s.title}
                    first={i === 0}
                    last={i === stories.length - 1}
                    busy={action.busy}
                    onMove={(to) => act(() => moveStory(s.id, token, i + to))}
                  />
                )}
                {runner && STEP[s.status] && (
                  <button
                    type="button"
                    class="small"
                    disabled={action.busy}
                    onClick={() => act(() => STEP[s.status]!.call(s.id, runner))}
                  >
                    {STEP[s.status]!.label()}
                  </button>
                )}
                {token && (
                  <button
                    type="button"
                    class="icon"
                    aria-label={m.deleteStory(s.title)}
                    disabled={action.busy}
                    onClick={() => confirm(m.confirmDelete(s.title)) && act(() => deleteStory(s.id, token))}
                  >
                    ✕
                  </button>
                )}
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

/** The owner's moves of a story one place up (`to` 0: its position is its index) or down (2). */
function MoveButtons(props: {
  title: string;
  first: boolean;
  last: boolean;
  busy: boolean;
  onMove(to: 0 | 2): void;
}) {
  const m = t();
  return (
    <>
      <button
        type="button"
        class="icon"
        aria-label={m.moveUp(props.title)}
        disabled={props.first || props.busy}
        onClick={() => props.onMove(0)}
      >
        ↑
      </button>
      <button
        type="button"
        class="icon"
        aria-label={m.moveDown(props.title)}
        disabled={props.last || props.busy}
        onClick={() => props.onMove(2)}
      >
        ↓
      </button>
    </>
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
