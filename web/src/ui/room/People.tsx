import type { Participant, RoomStory } from '../../api/types.ts';
import type { RoomState } from '../../room/room-state.ts';

const ROLE: Record<Participant['role'], string> = {
  moderator: 'moderator',
  participant: '',
  observer: 'observer',
};
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
}: {
  state: RoomState;
  current: RoomStory | null;
  me?: Participant;
}) {
  const open = current?.status === 'voting';
  const voted = new Set(current ? (state.voted[current.id] ?? []) : []);
  const everyone = state.participants;
  const watching = everyone.filter((p) => p.role === 'observer').length;
  const shown = open ? [...everyone].sort((a, b) => rank(a, voted) - rank(b, voted)) : everyone;
  const waiting = open ? shown.filter((p) => rank(p, voted) === 0) : [];
  const named = waiting.slice(0, NAMED).map((p) => p.name);
  return (
    <section class="panel" aria-labelledby="people-title">
      <h2 id="people-title">People ({everyone.length})</h2>
      <p class="muted" data-testid="people-counts">
        {everyone.length - watching} voting{watching > 0 && `, ${watching} watching`}
      </p>
      {open && (
        <p data-testid="still-to-vote">
          {waiting.length === 0
            ? 'Everyone has voted.'
            : `Still to vote (${waiting.length}): ${named.join(', ')}${waiting.length > NAMED ? ` and ${waiting.length - NAMED} more` : ''}`}
        </p>
      )}
      <details class="people-all" open={everyone.length <= SMALL_ROOM}>
        <summary>Everyone ({everyone.length})</summary>
        <ul class="people" aria-label="Participants">
          {shown.map((p) => {
            const hasVoted = open && voted.has(p.id);
            return (
              <li key={p.id} data-voted={hasVoted ? 'yes' : 'no'}>
                <span class="person">
                  {p.name}
                  {p.id === me?.id && <span class="muted"> (you)</span>}
                  {ROLE[p.role] && <span class="tag">{ROLE[p.role]}</span>}
                </span>
                {open && p.role !== 'observer' && (
                  <span class={hasVoted ? 'voted' : 'waiting'}>{hasVoted ? '✓ voted' : 'waiting'}</span>
                )}
              </li>
            );
          })}
        </ul>
      </details>
    </section>
  );
}
