import type { Participant, Role, VoteStats } from '../api/types.ts';
import type { RoomState } from './state.ts';

/** Who the rounds count: everyone in the room but observers. */
const counts = (role: Role | undefined) => role !== undefined && role !== 'observer';

/**
 * The rounds' counts once someone came, went or changed role (`undefined`: not in the room). The
 * events name the person, not the counts, which come only with the next vote: until then, the room
 * would say "1 of 1 voted" with a second voter waiting. One who stops voting takes their open votes
 * along, as the server drops them.
 */
function recounted(state: RoomState, id: number, before: Role | undefined, after: Role | undefined) {
  const change = Number(counts(after)) - Number(counts(before));
  if (change === 0) return { voted: state.voted, stats: state.stats };
  const stats: Record<string, VoteStats> = {};
  for (const [story, known] of Object.entries(state.stats)) {
    const dropped = change < 0 && (state.voted[story] ?? []).includes(id);
    const cast = Math.max(0, known.votes_cast - Number(dropped));
    const total = Math.max(0, known.total_participants + change);
    stats[story] = { votes_cast: cast, total_participants: total, all_voted: total > 0 && cast >= total };
  }
  const voted =
    change < 0
      ? Object.fromEntries(
          Object.entries(state.voted).map(([story, ids]) => [story, ids.filter((v) => v !== id)]),
        )
      : state.voted;
  return { voted, stats };
}

const roleOf = (state: RoomState, id: number) => state.participants.find((p) => p.id === id)?.role;

export function withJoined(state: RoomState, p: Participant): RoomState {
  if (state.participants.some((x) => x.id === p.id)) return state;
  return { ...state, participants: [...state.participants, p], ...recounted(state, p.id, undefined, p.role) };
}

export function withLeft(state: RoomState, p: Participant): RoomState {
  return {
    ...state,
    participants: state.participants.filter((x) => x.id !== p.id),
    ...recounted(state, p.id, roleOf(state, p.id) ?? p.role, undefined),
  };
}

/**
 * A new role. There is one moderator: handing the role over makes the one who had it a participant,
 * which the server does without an event of its own.
 */
export function withUpdated(state: RoomState, p: Participant): RoomState {
  const handedOver = (x: Participant) => p.role === 'moderator' && x.role === 'moderator';
  return {
    ...state,
    participants: state.participants.map((x) =>
      x.id === p.id ? { ...x, ...p } : handedOver(x) ? { ...x, role: 'participant' } : x,
    ),
    ...recounted(state, p.id, roleOf(state, p.id) ?? p.role, p.role),
  };
}
