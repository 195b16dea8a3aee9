/** A vote as the room sees it at reveal: always named. */
export interface RoomVote {
  participant: { id: number; name: string };
  value: string;
}

/** A vote as kept (and shown later): named only when the session records voter names. */
export interface KeptVote {
  participant: { id: number | null; name: string | null };
  value: string;
}

/** What is stored for later: names (and ids, which would give the names away) only when recorded. */
export function votesToKeep(votes: readonly RoomVote[], recordVoteNames: boolean): KeptVote[] {
  return votes.map((v) => ({
    participant: recordVoteNames
      ? { id: v.participant.id, name: v.participant.name }
      : { id: null, name: null },
    value: v.value,
  }));
}

/** Stored votes as shown now: a session that stopped recording names no longer shows the old ones. */
export function votesToShow(votes: readonly KeptVote[], recordVoteNames: boolean): KeptVote[] {
  return votes.map((v) => ({
    participant: recordVoteNames ? { ...v.participant } : { id: null, name: null },
    value: v.value,
  }));
}
