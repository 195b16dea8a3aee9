import { useEffect, useRef, useState } from 'preact/hooks';
import type { Auth } from '../auth.ts';
import { ApiError, describeError } from '../api/client.ts';
import { castVote, listParticipants, listStories, lookUpSession } from '../api/endpoints.ts';
import { openRoomStream, type StreamStatus } from '../api/room-stream.ts';
import type { Participant, Seat, Session } from '../api/types.ts';
import {
  applyRoomEvent,
  currentStory,
  initialRoomState,
  lastRevealed,
  withOwnVote,
  withSnapshot,
  type RoomEvent,
  type RoomState,
} from '../room/room-state.ts';
import { readSeat, writeSeat } from '../storage.ts';
import { Problem } from './common.tsx';
import { JoinForm } from './room/JoinForm.tsx';
import { ModeratorTools } from './room/ModeratorTools.tsx';
import { People } from './room/People.tsx';
import { Results } from './room/Results.tsx';
import { Round } from './room/Round.tsx';
import { ShareLink, StreamBadge } from './room/RoomHeader.tsx';
import { Stories } from './room/Stories.tsx';

/**
 * The events carry what changed, so the room reads itself again only where they cannot tell it all:
 * after a reconnection, after the moderator's own changes, and when a story moved or went (the
 * others' positions close up without events of their own). A moment later, once for a burst.
 */
const SETTLE_MS = 300;
const reordering = (type: string, data: unknown) =>
  type === 'story.deleted' ||
  (type === 'story.updated' && ((data as { changed?: string[] }).changed ?? []).includes('position'));

/** The room of a session: the join screen, then the round, the results, the people and the stories. */
export function Room({ code, auth }: { code: string; auth: Auth }) {
  const [state, setState] = useState<RoomState | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  const [status, setStatus] = useState<StreamStatus>('connecting');
  const [seat, setSeatState] = useState<Seat | null>(() => readSeat(code));
  const [voteError, setVoteError] = useState<string | null>(null);
  /** The session alone, which the join screen needs, before the rest of the room has been read. */
  const [preview, setPreview] = useState<Session | null>(null);
  const early = useRef<RoomEvent[] | null>([]);
  const settle = useRef<ReturnType<typeof setTimeout>>(undefined);

  const setSeat = (next: Seat | null) => {
    writeSeat(code, next);
    setSeatState(next);
  };
  /** Whether this browser's seat went because the moderator removed it: the join screen says so. */
  const [removed, setRemoved] = useState(false);
  const leave = () => {
    setSeat(null);
    setRemoved(true);
  };

  const refresh = async () => {
    try {
      // A seat taken while the room is read is not in what is read: only the one kept before is checked.
      const kept = readSeat(code);
      const lookup = lookUpSession(code, auth.token);
      if (early.current)
        lookup.then(
          (a) => setPreview(a.session),
          () => undefined,
        );
      const [{ session }, { participants }, { stories }] = await Promise.all([
        lookup,
        listParticipants(code),
        listStories(code),
      ]);
      setState((prev) => {
        if (prev) return withSnapshot(prev, { session, participants, stories });
        // Events that came while the room was read apply on top of it.
        const first = (early.current ?? []).reduce(
          applyRoomEvent,
          initialRoomState(session, participants, stories),
        );
        early.current = null;
        return first;
      });
      if (kept && readSeat(code)?.id === kept.id && !participants.some((p) => p.id === kept.id)) leave();
    } catch (err) {
      // Once the room is open, a failed fresh read changes nothing: the next event or reconnection reads again.
      if (err instanceof ApiError && err.status === 404)
        setMissing(`There is no room with the code ${code}.`);
      else if (early.current) setMissing(describeError(err));
    }
  };
  const settleSoon = () => {
    clearTimeout(settle.current);
    settle.current = setTimeout(() => void refresh(), SETTLE_MS);
  };

  useEffect(() => {
    const stream = openRoomStream(`/sessions/${encodeURIComponent(code)}/events`, {
      onStatus: setStatus,
      onResumed: settleSoon,
      onEvent: (type, data) => {
        const event = { type, data };
        if (early.current) early.current.push(event);
        else setState((prev) => (prev ? applyRoomEvent(prev, event) : prev));
        if (
          type === 'participant.left' &&
          (data as { participant?: { id?: number } }).participant?.id === readSeat(code)?.id
        )
          leave();
        if (reordering(type, data)) settleSoon();
      },
    });
    void refresh();
    return () => {
      stream.close();
      clearTimeout(settle.current);
    };
  }, [code, auth.token]);

  const session = state?.session ?? preview;
  useEffect(() => {
    if (session) performance.mark('room-rendered');
  }, [session !== null]);

  useEffect(() => {
    if (session) document.title = `${session.name} · Planning poker`;
  }, [session?.name]);

  const joined = (s: Seat, participant: Participant) => {
    setSeat(s);
    setRemoved(false);
    const event = { type: 'participant.joined', data: { participant } };
    if (early.current) early.current.push(event);
    else setState((prev) => (prev ? applyRoomEvent(prev, event) : prev));
  };
  const joinScreen = (session: Session) => (
    <div class="room">
      <header class="room-head">
        <h1>{session.name}</h1>
        <StreamBadge status={status} />
      </header>
      <Problem error={removed ? 'The moderator removed you from the room: join again to take part.' : null} />
      <JoinForm code={code} auth={auth} session={session} onJoined={joined} />
    </div>
  );

  if (missing && !state)
    return (
      <section class="panel">
        <h1>Room {code}</h1>
        <Problem error={missing} />
      </section>
    );
  if (!state && preview && !seat && preview.owner_id === undefined) return joinScreen(preview);
  if (!state)
    return (
      <p class="muted" role="status">
        Opening room {code}…
      </p>
    );

  const owner = state.session.owner_id !== undefined;
  const me = seat ? state.participants.find((p) => p.id === seat.id) : undefined;
  const current = currentStory(state);

  const vote = async (value: string) => {
    if (!seat || !current) return;
    setVoteError(null);
    try {
      // The vote goes to the story open when the server takes it, which may be one opened since.
      const { vote: taken, stats } = await castVote(code, seat, value);
      setState((prev) => (prev ? withOwnVote(prev, taken.story_id, seat.id, taken.value, stats) : prev));
    } catch (err) {
      if (
        err instanceof ApiError &&
        ['participant_not_found', 'invalid_participant_token'].includes(err.code)
      )
        setSeat(null);
      setVoteError(describeError(err));
    }
  };

  if (!owner && !me) return joinScreen(state.session);

  return (
    <div class="room">
      <header class="room-head">
        <h1>{state.session.name}</h1>
        <StreamBadge status={status} />
        <ShareLink code={code} />
      </header>
      <div class="room-grid">
        <div class="room-main">
          <Round
            state={state}
            current={current}
            me={me}
            owner={owner ? auth.token : null}
            onVote={vote}
            voteError={voteError}
            onJoin={joined}
            onChanged={settleSoon}
          />
          <Results story={lastRevealed(state)} deck={state.session.deck} />
        </div>
        <aside class="room-side">
          <People state={state} current={current} me={me} />
          <Stories state={state} token={owner ? auth.token : null} onChanged={settleSoon} />
          {owner && auth.token && <ModeratorTools state={state} token={auth.token} onChanged={settleSoon} />}
        </aside>
      </div>
    </div>
  );
}
