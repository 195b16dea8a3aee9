import type { OpenRound, Participant, RoomStory, Session, StorySummary, VoteStats } from '../api/types.ts';
import { withJoined, withLeft, withUpdated } from './participants.ts';
import type { RoomEvent, RoomState } from './state.ts';
import { afterEvent, withVoteCast } from './votes.ts';

export type { RoomEvent, RoomState } from './state.ts';

const byPosition = (a: StorySummary, b: StorySummary) => a.position - b.position;

/** The revealed story shown when a room is opened: the last one before the current story, else the last one. */
function guessLastRevealed(stories: RoomStory[], current: StorySummary | null): string | null {
  const revealed = stories.filter((s) => s.status === 'revealed');
  const before = current ? revealed.filter((s) => s.position < current.position) : [];
  return (before.at(-1) ?? revealed.at(-1))?.id ?? null;
}

export function initialRoomState(
  session: Session,
  participants: RoomState['participants'],
  stories: RoomStory[],
  round: OpenRound | null = null,
): RoomState {
  const sorted = [...stories].sort(byPosition);
  return {
    session,
    participants,
    stories: sorted,
    voted: round ? { [round.story_id]: round.voted } : {},
    stats: round ? { [round.story_id]: round.stats } : {},
    seen: 0,
    countedAt: {},
    mine: {},
    lastRevealedId: guessLastRevealed(sorted, session.current_story),
  };
}

/**
 * What was read, with what the events brought meanwhile: someone who joined, or a story added, while
 * the read was on its way is not in it (removals come as events, so what the state has beyond the
 * read is newer than it).
 */
const merged = <T extends { id: unknown }>(read: T[], known: T[]) => [
  ...read,
  ...known.filter((k) => !read.some((r) => r.id === k.id)),
];

const valuesOf = (s: RoomStory) => (s.votes ?? []).map((v) => v.value).sort();

/**
 * The reveal names the voters to the room; a read of the stories names them only when the session
 * keeps names. The names seen stay over a read of the same votes.
 */
function keepNames(read: RoomStory, known: RoomStory | undefined): RoomStory {
  if (!known?.votes || !read.votes?.every((v) => v.participant.name === null)) return read;
  return valuesOf(read).join('\n') === valuesOf(known).join('\n') ? { ...read, votes: known.votes } : read;
}

/** A fresh read of the room replaces what the events had patched (they may have missed something). */
export function withSnapshot(
  state: RoomState,
  fresh: {
    session?: Session;
    participants?: RoomState['participants'];
    stories?: RoomStory[];
    round?: OpenRound | null;
  },
): RoomState {
  const session = fresh.session ? { ...state.session, ...fresh.session } : state.session;
  const read = fresh.stories?.map((s) =>
    keepNames(
      s,
      state.stories.find((k) => k.id === s.id),
    ),
  );
  const stories = read ? merged(read, state.stories).sort(byPosition) : state.stories;
  const last = stories.find((s) => s.id === state.lastRevealedId && s.status === 'revealed');
  return {
    ...state,
    session,
    participants: fresh.participants ? merged(fresh.participants, state.participants) : state.participants,
    ...(fresh.round ? withRound(state, fresh.round) : {}),
    stories,
    lastRevealedId: last ? last.id : guessLastRevealed(stories, session.current_story),
  };
}

/**
 * The open round as read: its voters added to those the events named, its counts as read unless the
 * events named voters the read did not have yet (theirs are newer).
 */
function withRound(state: RoomState, round: OpenRound) {
  const known = state.voted[round.story_id] ?? [];
  const voted = [...round.voted, ...known.filter((id) => !round.voted.includes(id))];
  const newer = voted.length > round.voted.length && state.stats[round.story_id];
  return {
    voted: { ...state.voted, [round.story_id]: voted },
    stats: { ...state.stats, [round.story_id]: newer || round.stats },
  };
}

/** The story open for votes, as the freshest of the session and the stories has it. */
export function currentStory(state: RoomState): RoomStory | null {
  const current = state.session.current_story;
  if (!current) return null;
  return (
    state.stories.find((s) => s.id === current.id) ?? {
      description: '',
      acceptance_criteria: '',
      ...current,
      final_estimate: null,
      votes: null,
    }
  );
}

export const lastRevealed = (state: RoomState): RoomStory | null =>
  state.stories.find((s) => s.id === state.lastRevealedId && s.status === 'revealed') ?? null;

/** The participants who vote (observers do not). */
export const voters = (state: RoomState) => state.participants.filter((p) => p.role !== 'observer');

function upsertStory(stories: RoomStory[], summary: StorySummary, extra: Partial<RoomStory> = {}) {
  const found = stories.find((s) => s.id === summary.id);
  const base = { description: '', acceptance_criteria: '', final_estimate: null, votes: null, ...found };
  // A summary (an event's story) leaves the texts out: those known stay.
  const story: RoomStory = {
    ...base,
    ...summary,
    ...extra,
    description: extra.description ?? base.description,
    acceptance_criteria: extra.acceptance_criteria ?? base.acceptance_criteria,
  };
  return [...stories.filter((s) => s.id !== summary.id), story].sort(byPosition);
}

const setStatus = (stories: RoomStory[], id: string | null | undefined, status: RoomStory['status']) =>
  stories.map((s) => (s.id === id && s.status !== 'revealed' ? { ...s, status } : s));

/** The session without its round's countdown (`storyId`: only if it counts down that story's round). */
const endCountdown = (session: RoomState['session'], storyId?: string) =>
  session.countdown && (storyId === undefined || session.countdown.story_id === storyId)
    ? { ...session, countdown: null }
    : session;

const without = <T>(record: Record<string, T>, key: string) => {
  const copy = { ...record };
  delete copy[key];
  return copy;
};

/** The room after one live event (an event it does not know leaves it as it was). */
export function applyRoomEvent(state: RoomState, event: RoomEvent): RoomState {
  const after = patched(state, event);
  return after === state ? state : afterEvent(state, after);
}

function patched(state: RoomState, event: RoomEvent): RoomState {
  const d = event.data ?? {};
  switch (event.type) {
    case 'participant.joined':
      return withJoined(state, d.participant as Participant);
    case 'participant.left':
      return withLeft(state, d.participant as Participant);
    case 'participant.updated':
      return withUpdated(state, d.participant as Participant);
    case 'participant.presence': {
      const { participant, connected } = d as { participant: { id: number }; connected: boolean };
      if (!state.participants.some((p) => p.id === participant.id)) return state;
      return {
        ...state,
        participants: state.participants.map((p) => (p.id === participant.id ? { ...p, connected } : p)),
      };
    }
    case 'countdown.started':
      return { ...state, session: { ...state.session, countdown: d.countdown } };
    case 'countdown.ended':
      return { ...state, session: endCountdown(state.session, d.story_id as string) };
    case 'vote.cast':
      return withVoteCast(
        state,
        d.story_id as string,
        (d.participant as Participant).id,
        d.stats as VoteStats,
      );
    case 'story.created':
    case 'story.updated': {
      const story = d.story as StorySummary;
      const session = story.status === 'voting' ? { ...state.session, current_story: story } : state.session;
      return { ...state, session, stories: upsertStory(state.stories, story) };
    }
    case 'story.activated': {
      const story = d.story as StorySummary;
      const stories = setStatus(state.stories, d.previous_story_id, 'pending');
      return {
        ...state,
        session: { ...endCountdown(state.session), current_story: story },
        stories: upsertStory(stories, story),
      };
    }
    case 'story.reset': {
      const story = d.story as StorySummary;
      const previous = state.session.current_story?.id;
      const stories = previous !== story.id ? setStatus(state.stories, previous, 'pending') : state.stories;
      return {
        ...state,
        session: { ...endCountdown(state.session), current_story: story },
        stories: upsertStory(stories, story, { final_estimate: null, votes: null }),
        voted: { ...state.voted, [story.id]: [] },
        stats: without(state.stats, story.id),
        mine: without(state.mine, story.id),
        lastRevealedId: state.lastRevealedId === story.id ? null : state.lastRevealedId,
      };
    }
    case 'story.revealed': {
      const { votes, final_estimate, revealed_at: _at, ...summary } = d.story;
      let stories = upsertStory(state.stories, summary as StorySummary, { votes, final_estimate });
      stories = setStatus(stories, d.next_story_id, 'voting');
      const next = stories.find((s) => s.id === d.next_story_id);
      return {
        ...state,
        session: { ...endCountdown(state.session, summary.id), current_story: next ?? null },
        stories,
        lastRevealedId: summary.id,
      };
    }
    case 'story.deleted': {
      const story = d.story as StorySummary;
      let stories = state.stories.filter((s) => s.id !== story.id);
      stories = setStatus(stories, d.next_story_id, 'voting');
      const wasCurrent = state.session.current_story?.id === story.id;
      const next = stories.find((s) => s.id === d.next_story_id);
      const session = endCountdown(state.session, story.id);
      return {
        ...state,
        session: wasCurrent ? { ...session, current_story: next ?? null } : session,
        stories,
        lastRevealedId: state.lastRevealedId === story.id ? null : state.lastRevealedId,
      };
    }
    case 'session.updated': {
      const { current_story: _c, participants_count: _p, ...fields } = d.session ?? {};
      return { ...state, session: { ...state.session, ...fields } };
    }
    default:
      return state;
  }
}
