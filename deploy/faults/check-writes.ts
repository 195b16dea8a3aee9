/**
 * Writes: what every 2xx promised is in the final state, and every change in it was made whole (its
 * event is in the room's history, and no event announces a change it lacks); a change answered 503 or
 * never answered may be there or not.
 */
import type { Operation } from './ledger.ts';
import type { EventData, Finding, FinalStory, RoomState } from './observations.ts';

const indeterminate = (op: Operation) => op.outcome === 'refused' || op.outcome === 'hung';
const voteKey = (participantId: number, storyId: string) => `${participantId}/${storyId}`;

/** Every 2xx vote's last value per participant and story is among its story's votes after the reveal. */
function checkVotes(room: RoomState, ops: Operation[], stories: Map<string, FinalStory>): Finding[] {
  const findings: Finding[] = [];
  const votes = ops.filter((op) => op.kind === 'vote');
  const lastOk = new Map<string, Operation>();
  for (const op of votes) {
    if (op.outcome === 'ok') lastOk.set(voteKey(op.participantId!, op.storyId!), op);
  }
  for (const [key, op] of lastOk) {
    const story = stories.get(op.storyId!);
    if (!story || story.status !== 'revealed' || !story.votes) {
      findings.push({
        kind: 'lost-write',
        detail: `room ${room.code}: vote ${key} is on a story never revealed`,
      });
      continue;
    }
    const kept = story.votes.find((v) => v.participantId === op.participantId);
    // An unanswered vote of the same participant may have landed after the last answered one.
    const allowed = new Set([
      op.value,
      ...votes.filter((v) => indeterminate(v) && v.participantId === op.participantId).map((v) => v.value),
    ]);
    if (!kept)
      findings.push({ kind: 'lost-write', detail: `room ${room.code}: vote ${key} (${op.value}) missing` });
    else if (!allowed.has(kept.value))
      findings.push({
        kind: 'lost-write',
        detail: `room ${room.code}: vote ${key} is ${kept.value}, answered 2xx as ${op.value}`,
      });
  }
  return findings;
}

const sameVotes = (a: FinalStory['votes'], b: Operation['votes']) =>
  JSON.stringify([...(a ?? [])].map((v) => `${v.participantId}=${v.value}`).sort()) ===
  JSON.stringify([...(b ?? [])].map((v) => `${v.participantId}=${v.value}`).sort());

/** Every 2xx reveal stays revealed with the same estimate and votes; every 2xx story add is there. */
function checkStories(room: RoomState, ops: Operation[], stories: Map<string, FinalStory>): Finding[] {
  const findings: Finding[] = [];
  for (const op of ops.filter((o) => o.outcome === 'ok')) {
    const story = stories.get(op.storyId ?? '');
    if (op.kind === 'add-story' && !story)
      findings.push({ kind: 'lost-write', detail: `room ${room.code}: story ${op.storyId} added, missing` });
    if (op.kind !== 'reveal') continue;
    if (!story || story.status !== 'revealed')
      findings.push({
        kind: 'lost-write',
        detail: `room ${room.code}: story ${op.storyId} revealed, now not`,
      });
    else if (story.finalEstimate !== op.finalEstimate || !sameVotes(story.votes, op.votes))
      findings.push({
        kind: 'lost-write',
        detail: `room ${room.code}: story ${op.storyId} revealed as ${op.finalEstimate}, now ${story.finalEstimate}`,
      });
  }
  return findings;
}

/** Every change in the final state, and every 2xx change, has its event in the room's history. */
function checkWhole(room: RoomState, ops: Operation[]): Finding[] {
  const findings: Finding[] = [];
  const count = (type: string, match: (data: EventData) => boolean) =>
    room.history.filter((e) => e.type === type && match(e.data)).length;
  const missing = (what: string) =>
    findings.push({ kind: 'half-change', detail: `room ${room.code}: ${what}` });
  for (const story of room.stories) {
    if (count('story.created', (d) => d.story?.id === story.id) === 0)
      missing(`story ${story.id} exists without story.created`);
    if (story.status !== 'revealed') continue;
    const reveals = count('story.revealed', (d) => d.story?.id === story.id);
    if (reveals === 0) missing(`story ${story.id} revealed without story.revealed`);
    if (reveals > 1)
      findings.push({
        kind: 'duplicate-event',
        detail: `room ${room.code}: story ${story.id} revealed ${reveals} times`,
      });
    for (const vote of story.votes ?? []) {
      const cast = (d: EventData) => d.story_id === story.id && d.participant?.id === vote.participantId;
      if (count('vote.cast', cast) === 0)
        missing(`vote ${voteKey(vote.participantId, story.id)} kept without vote.cast`);
    }
  }
  for (const op of ops.filter((o) => o.outcome === 'ok')) {
    if (
      op.kind === 'join' &&
      count('participant.joined', (d) => d.participant?.id === op.participantId) === 0
    )
      missing(`join of ${op.participantId} answered 2xx without participant.joined`);
    if (op.kind === 'vote') {
      const cast = (d: EventData) => d.story_id === op.storyId && d.participant?.id === op.participantId;
      if (count('vote.cast', cast) === 0)
        missing(`vote ${voteKey(op.participantId!, op.storyId!)} answered 2xx without vote.cast`);
    }
  }
  return findings;
}

/**
 * The other way round: every event of the history announces a change the final state holds (no event
 * for a change that was not committed). Stories are never deleted nor votes cleared by the traffic.
 */
function checkAnnounced(room: RoomState, stories: Map<string, FinalStory>): Finding[] {
  const findings: Finding[] = [];
  const phantom = (what: string) =>
    findings.push({ kind: 'half-change', detail: `room ${room.code}: ${what}` });
  for (const event of room.history) {
    const storyId = event.type === 'vote.cast' ? event.data.story_id : event.data.story?.id;
    const story = stories.get(storyId ?? '');
    if (event.type === 'story.created' && !story) phantom(`story.created ${event.id} for a story not there`);
    if (event.type === 'story.revealed' && story?.status !== 'revealed')
      phantom(`story.revealed ${event.id} for a story not revealed`);
    const voter = event.data.participant?.id;
    if (
      event.type === 'vote.cast' &&
      story?.status === 'revealed' &&
      !story.votes?.some((v) => v.participantId === voter)
    )
      phantom(`vote.cast ${event.id} of ${voter} not among the votes of revealed story ${storyId}`);
  }
  return findings;
}

export function checkWrites(rooms: RoomState[], operations: Operation[]): Finding[] {
  return rooms.flatMap((room) => {
    const ops = operations.filter((op) => op.room === room.code);
    const stories = new Map(room.stories.map((s) => [s.id, s]));
    return [
      ...checkVotes(room, ops, stories),
      ...checkStories(room, ops, stories),
      ...checkWhole(room, ops),
      ...checkAnnounced(room, stories),
    ];
  });
}
