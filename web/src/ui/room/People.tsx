import type { Participant, RoomStory } from '../../api/types.ts';
import type { RoomState } from '../../room/room-state.ts';

const ROLE: Record<Participant['role'], string> = {
  moderator: 'moderator',
  participant: '',
  observer: 'observer',
};

/** Who is in the room and who has voted on the open story (never what). */
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
  return (
    <section class="panel" aria-labelledby="people-title">
      <h2 id="people-title">People ({state.participants.length})</h2>
      <ul class="people" aria-label="Participants">
        {state.participants.map((p) => {
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
    </section>
  );
}
