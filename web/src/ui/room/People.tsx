import { changeRole, removeParticipant } from '../../api/endpoints.ts';
import type { Participant, RoomStory } from '../../api/types.ts';
import { t } from '../../i18n/i18n.ts';
import type { RoomState } from '../../room/room-state.ts';
import { Problem, useAction } from '../common.tsx';

const ROLE = (role: Participant['role']) =>
  role === 'moderator' ? t().roleModerator : role === 'observer' ? t().roleObserver : '';
/** Up to this many people the whole list shows at once; a bigger room shows it on demand. */
const SMALL_ROOM = 12;
/** How many of those still to vote are named in the summary. */
const NAMED = 8;

/** Who has not voted yet first, then who has, then who only watches (joining order within each). */
const rank = (p: Participant, voted: Set<number>) => (p.role === 'observer' ? 2 : voted.has(p.id) ? 1 : 0);

/**
 * Who is in the room and who has voted on the open story (never what): the counts and who is still
 * to vote first, the whole list (which scrolls) at once in a small room, on demand in a big one.
 */
export function People({
  state,
  current,
  me,
  token,
  onChanged,
}: {
  state: RoomState;
  current: RoomStory | null;
  me?: Participant;
  /** The owner's access token: the actions on each person. */
  token?: string | null;
  onChanged?(): void;
}) {
  const action = useAction();
  const m = t();
  const open = current?.status === 'voting';
  const voted = new Set(current ? (state.voted[current.id] ?? []) : []);
  const everyone = state.participants;
  const watching = everyone.filter((p) => p.role === 'observer').length;
  const shown = open ? [...everyone].sort((a, b) => rank(a, voted) - rank(b, voted)) : everyone;
  const waiting = open ? shown.filter((p) => rank(p, voted) === 0) : [];
  const named = waiting.slice(0, NAMED).map((p) => p.name);
  return (
    <section class="panel" aria-labelledby="people-title">
      <h2 id="people-title">{m.peopleTitle(everyone.length)}</h2>
      <p class="muted" data-testid="people-counts">
        {m.votingCount(everyone.length - watching)}
        {watching > 0 && m.watchingCount(watching)}
      </p>
      {open && (
        <p data-testid="still-to-vote">
          {waiting.length === 0
            ? m.everyoneVoted
            : m.stillToVote(waiting.length, named.join(', '), waiting.length - named.length)}
        </p>
      )}
      <details class="people-all" open={everyone.length <= SMALL_ROOM}>
        <summary>{m.everyoneList(everyone.length)}</summary>
        <ul class="people" aria-label={m.participantsList}>
          {shown.map((p) => {
            const hasVoted = open && voted.has(p.id);
            return (
              <li
                key={p.id}
                data-voted={hasVoted ? 'yes' : 'no'}
                data-connected={p.connected === undefined ? undefined : String(p.connected)}
              >
                <span class="person">
                  {p.connected !== undefined && (
                    <span
                      class={`presence${p.connected ? ' presence-online' : ''}`}
                      role="img"
                      aria-label={p.connected ? m.personConnected : m.personAway}
                      title={p.connected ? m.personConnected : m.personAway}
                    />
                  )}
                  {p.name}
                  {p.id === me?.id && <span class="muted">{m.you}</span>}
                  {ROLE(p.role) && <span class="tag">{ROLE(p.role)}</span>}
                </span>
                {open && p.role !== 'observer' && (
                  <span class={hasVoted ? 'voted' : 'waiting'}>{hasVoted ? m.hasVoted : m.waiting}</span>
                )}
                {token && p.id !== me?.id && (
                  <PersonActions
                    person={p}
                    busy={action.busy}
                    act={(call) =>
                      void action.run(async () => {
                        await call(state.session.code, token);
                        onChanged?.();
                      })
                    }
                  />
                )}
              </li>
            );
          })}
        </ul>
      </details>
      <Problem error={action.error} />
    </section>
  );
}

/** The owner's actions on one person: remove them, hand them the moderator role, make them watch or vote. */
function PersonActions(props: {
  person: Participant;
  busy: boolean;
  act(call: (code: string, token: string) => Promise<unknown>): void;
}) {
  const { person: p, busy, act } = props;
  const m = t();
  return (
    <details class="person-actions">
      <summary aria-label={m.personActions(p.name)}>⋯</summary>
      <div class="row">
        {p.role !== 'moderator' && (
          <button
            type="button"
            class="small"
            disabled={busy}
            onClick={() => act((c, tk) => changeRole(c, tk, p.id, 'moderator'))}
          >
            {m.personMakeModerator}
          </button>
        )}
        {p.role === 'observer' ? (
          <button
            type="button"
            class="small"
            disabled={busy}
            onClick={() => act((c, tk) => changeRole(c, tk, p.id, 'participant'))}
          >
            {m.personMakeVoter}
          </button>
        ) : (
          <button
            type="button"
            class="small"
            disabled={busy}
            onClick={() => act((c, tk) => changeRole(c, tk, p.id, 'observer'))}
          >
            {m.personMakeObserver}
          </button>
        )}
        <button
          type="button"
          class="small"
          disabled={busy}
          onClick={() =>
            confirm(m.personConfirmRemove(p.name)) && act((c, tk) => removeParticipant(c, tk, p.id))
          }
        >
          {m.personRemove}
        </button>
      </div>
    </details>
  );
}
