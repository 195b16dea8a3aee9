import type { Participant, VoteStats } from '../api/types.ts';
import type { RoomState } from './state.ts';

/**
 * A round's counts come from the live events, in the order the server took the votes, and from the
 * answer to this browser's own vote, which may come after events of later votes (another person's
 * vote.cast on the stream before the answer). So the state counts the events it takes (`seen`) and
 * notes, per story, which one last changed its counts (`countedAt`): an answer's counts go only where
 * no event changed them since its vote left.
 */

const withVoter = (voted: RoomState['voted'], storyId: string, id: Participant['id']) => {
  const ids = voted[storyId] ?? [];
  return { ...voted, [storyId]: ids.includes(id) ? ids : [...ids, id] };
};

/** Someone voted (again): among the story's voters, with the round's new counts. */
export const withVoteCast = (state: RoomState, storyId: string, id: Participant['id'], stats: VoteStats) => ({
  ...state,
  voted: withVoter(state.voted, storyId, id),
  stats: { ...state.stats, [storyId]: stats },
});

/** The state after one more live event: the stories whose counts it changed (or dropped) noted. */
export function afterEvent(before: RoomState, after: RoomState): RoomState {
  const seen = before.seen + 1;
  const countedAt = { ...after.countedAt };
  for (const story of new Set([...Object.keys(before.stats), ...Object.keys(after.stats)]))
    if (before.stats[story] !== after.stats[story]) countedAt[story] = seen;
  return { ...after, seen, countedAt };
}

/**
 * This browser voted: its own value, and itself among the voters (before its event comes back), with
 * the answer's counts unless an event changed them after the vote left (`sentAt`: the state's `seen`
 * then), which is newer.
 */
export function withOwnVote(
  state: RoomState,
  storyId: string,
  participant: Participant['id'],
  value: string,
  stats: VoteStats,
  sentAt: number,
): RoomState {
  const newer = (state.countedAt[storyId] ?? -1) > sentAt;
  return {
    ...state,
    mine: { ...state.mine, [storyId]: value },
    voted: withVoter(state.voted, storyId, participant),
    stats: newer ? state.stats : { ...state.stats, [storyId]: stats },
  };
}

/** How many votes each card got, in deck order (cards outside the deck last). */
export function distribution(deck: readonly string[], values: readonly string[]) {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const order = [...deck, ...[...counts.keys()].filter((v) => !deck.includes(v))];
  return order.filter((v) => counts.has(v)).map((value) => ({ value, count: counts.get(value)! }));
}
