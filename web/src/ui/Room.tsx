import { lang, t } from '../i18n/i18n.ts';
import { useEffect, useState } from 'preact/hooks';
import type { Auth } from '../auth.ts';
import { ApiError, describeError } from '../api/client.ts';
import { castVote, type RoundRunner } from '../api/endpoints.ts';
import type { Participant, Seat, Session } from '../api/types.ts';
import { currentStory, lastRevealed } from '../room/room-state.ts';
import { withOwnVote } from '../room/votes.ts';
import { readSeat, writeSeat } from '../storage.ts';
import { Problem } from './common.tsx';
import { focusableCard } from './room/Cards.tsx';
import { useFocusWhenShown } from './room/focus.ts';
import { JoinForm } from './room/JoinForm.tsx';
import { ModeratorTools } from './room/ModeratorTools.tsx';
import { People } from './room/People.tsx';
import { Results, resultsHeadingOf } from './room/Results.tsx';
import { useRoomFeed } from './room/room-feed.ts';
import { Round, roundHeading } from './room/Round.tsx';
import { ShareLink, StreamBadge } from './room/RoomHeader.tsx';
import { Stories } from './room/Stories.tsx';

/** The room of a session: the join screen, then the round, the results, the people and the stories. */
export function Room({ code, auth }: { code: string; auth: Auth }) {
  const [seat, setSeatState] = useState<Seat | null>(() => readSeat(code));
  const [voteError, setVoteError] = useState<string | null>(null);

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
  const { state, setState, missing, status, preview, apply, settleSoon, seated } = useRoomFeed(
    code,
    auth.token,
    leave,
  );
  const focusWhenShown = useFocusWhenShown();

  const session = state?.session ?? preview;
  useEffect(() => {
    if (session) performance.mark('room-rendered');
  }, [session !== null]);

  useEffect(() => {
    if (session) document.title = t().pageTitle(session.name);
  }, [session?.name, lang()]);

  const joined = (s: Seat, participant: Participant) => {
    setSeat(s);
    setRemoved(false);
    apply({ type: 'participant.joined', data: { participant } });
    seated();
    // On to the cards, or to the round for one who only watches (or while no story is open).
    focusWhenShown(() => focusableCard() ?? roundHeading());
  };
  const joinScreen = (session: Session) => (
    <div class="room">
      <header class="room-head">
        <h1>{session.name}</h1>
        <StreamBadge status={status} />
      </header>
      <Problem error={removed ? t().removedFromRoom : null} />
      <JoinForm code={code} auth={auth} session={session} onJoined={joined} />
    </div>
  );

  if (missing && !state)
    return (
      <section class="panel">
        <h1>{t().roomTitle(code)}</h1>
        <Problem error={missing} />
      </section>
    );
  if (!state && preview && !seat && preview.owner_id === undefined) return joinScreen(preview);
  if (!state)
    return (
      <p class="muted" role="status">
        {t().roomOpening(code)}
      </p>
    );

  const owner = state.session.owner_id !== undefined;
  const me = seat ? state.participants.find((p) => p.id === seat.id) : undefined;
  const current = currentStory(state);
  // Who runs the round from this page: the owner, else this seat once it holds the moderator role.
  const runner: RoundRunner | null =
    owner && auth.token
      ? { token: auth.token }
      : me?.role === 'moderator' && seat
        ? { participantToken: seat.token }
        : null;

  const vote = async (value: string) => {
    if (!seat || !current) return;
    setVoteError(null);
    try {
      // The vote goes to the story open when the server takes it, which may be one opened since; the
      // events that come meanwhile may bring newer counts than its answer's.
      const sentAt = state.seen;
      const { vote: taken, stats } = await castVote(code, seat, value);
      setState((prev) =>
        prev ? withOwnVote(prev, taken.story_id, seat.id, taken.value, stats, sentAt) : prev,
      );
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
            runner={runner}
            onVote={vote}
            voteError={voteError}
            onJoin={joined}
            onRevealing={(id) => focusWhenShown(() => resultsHeadingOf(id))}
            onChanged={settleSoon}
          />
          <Results story={lastRevealed(state)} deck={state.session.deck} />
        </div>
        <aside class="room-side">
          <People
            state={state}
            current={current}
            me={me}
            token={owner ? auth.token : null}
            onChanged={settleSoon}
          />
          <Stories state={state} token={owner ? auth.token : null} runner={runner} onChanged={settleSoon} />
          {owner && auth.token && <ModeratorTools state={state} token={auth.token} onChanged={settleSoon} />}
        </aside>
      </div>
    </div>
  );
}
