import { useEffect, useState } from 'preact/hooks';
import {
  activateStory,
  joinSession,
  quickVote,
  resetStory,
  revealStory,
  type RoundRunner,
} from '../../api/endpoints.ts';
import type { Participant, RoomStory, Seat, SessionStatus } from '../../api/types.ts';
import { voters, type RoomState } from '../../room/room-state.ts';
import { Problem, useAction } from '../common.tsx';
import { lang, t } from '../../i18n/i18n.ts';
import { Cards } from './Cards.tsx';
import { CountdownClock, CountdownControls } from './Countdown.tsx';
import { StoryDetails } from './StoryDetails.tsx';

export const roundHeading = () => document.getElementById('round-title');

/** Re-renders every second while a deadline is on the screen. */
function useNow(active: boolean) {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [active]);
  return now;
}

/** Why the cards take no vote, when the session's state or the deadline says. */
function noVoteBecause(status: SessionStatus, deadlinePassed: boolean): string | null {
  const m = t();
  if (status === 'archived') return m.archivedNoVotes;
  if (status === 'completed') return m.completedNoVotes;
  if (status === 'paused') return m.pausedNoVotes;
  return deadlinePassed ? m.votingClosed : null;
}

const timeOf = (iso: string) =>
  new Date(iso).toLocaleTimeString(lang(), { hour: '2-digit', minute: '2-digit' });

/** The story open for votes: its counts, the cards, and the moderator's reveal and reset. */
export function Round(props: {
  state: RoomState;
  current: RoomStory | null;
  me: Participant | undefined;
  /** The owner's access token: the owner's own controls (a quick vote, editing the story, joining the vote). */
  owner: string | null;
  /** Whoever runs the round here, the owner or the moderator's seat: reveal, reset, open, countdown. */
  runner: RoundRunner | null;
  onVote(value: string): void;
  voteError: string | null;
  onJoin(seat: Seat, participant: Participant): void;
  /** The moderator asks for the reveal of this story. */
  onRevealing(storyId: string): void;
  onChanged(): void;
}) {
  const { state, current, me, owner, runner } = props;
  const { session } = state;
  const deadline = session.voteby_enabled && session.vote_by_at ? session.vote_by_at : null;
  const open = current?.status === 'voting';
  // The open round's countdown (one of another round is on its way out).
  const countdown = open && session.countdown?.story_id === current.id ? session.countdown : null;
  const closesAt = countdown?.at_zero === 'close' ? countdown.ends_at : null;
  const now = useNow(deadline !== null || closesAt !== null);
  const closed =
    (deadline !== null && Date.parse(deadline) <= now) || (closesAt !== null && Date.parse(closesAt) <= now);
  const action = useAction();
  const m = t();

  const voted = current ? (state.voted[current.id] ?? []) : [];
  const stats = current ? state.stats[current.id] : undefined;
  const total = stats?.total_participants ?? voters(state).length;
  const cast = stats?.votes_cast ?? voted.length;
  const mine = current ? state.mine[current.id] : undefined;
  const canVote = !!me && me.role !== 'observer' && open && !closed && session.status === 'active';

  const moderate = (call: (id: string, by: RoundRunner) => Promise<unknown>) =>
    current &&
    runner &&
    void action.run(async () => {
      await call(current.id, runner);
      props.onChanged();
    });

  return (
    <section class="panel round" aria-labelledby="round-title">
      <h2 id="round-title" tabIndex={-1}>
        {current ? current.title : m.noStoryOpen}
      </h2>
      {!current && <p class="muted">{owner ? m.addStoryToStart : m.waitingForModerator}</p>}
      {current && (
        <p class="round-facts" aria-live="polite">
          {open ? (
            <span data-testid="vote-count">{m.votedCount(cast, total)}</span>
          ) : (
            <span>{current.status === 'revealed' ? m.revealed : m.notOpen}</span>
          )}
          {deadline && <span>{closed ? m.votingClosedShort : m.votingClosesAt(timeOf(deadline))}</span>}
          {session.status !== 'active' && <span>{m.sessionIs(m[`status_${session.status}`])}</span>}
        </p>
      )}

      {current && <StoryDetails key={current.id} story={current} token={owner} onChanged={props.onChanged} />}
      {countdown && <CountdownClock countdown={countdown} />}
      {me?.role === 'observer' && <p class="muted">{m.observerNote}</p>}
      {me && me.role !== 'observer' && current && (
        <>
          <Cards deck={session.deck} selected={mine} disabled={!canVote} onPick={props.onVote} />
          <p class="muted" aria-live="polite">
            {mine !== undefined && (
              <>
                {m.yourVote} <strong data-testid="my-vote">{mine}</strong>.{' '}
              </>
            )}
            {canVote
              ? mine !== undefined
                ? m.changeUntilReveal
                : m.pickACard
              : noVoteBecause(session.status, closed)}
          </p>
          <Problem error={props.voteError} />
        </>
      )}

      {runner && (
        <div class="row controls">
          {owner && !me && <JoinTheVote code={session.code} token={owner} onJoin={props.onJoin} />}
          {open && (
            <button
              type="button"
              class="primary"
              disabled={action.busy}
              onClick={() => {
                props.onRevealing(current.id);
                moderate(revealStory);
              }}
            >
              {m.reveal}
            </button>
          )}
          {current && (
            <button type="button" disabled={action.busy} onClick={() => moderate(resetStory)}>
              {current.status === 'revealed' ? m.voteAgain : m.clearVotes}
            </button>
          )}
          {current?.status === 'pending' && (
            <button type="button" disabled={action.busy} onClick={() => moderate(activateStory)}>
              {m.openForVotes}
            </button>
          )}
          {owner && (
            <button
              type="button"
              title={m.quickVoteHint}
              disabled={action.busy || session.status !== 'active'}
              onClick={() =>
                void action.run(async () => {
                  await quickVote(session.code, owner);
                  props.onChanged();
                })
              }
            >
              {m.quickVote}
            </button>
          )}
        </div>
      )}
      {runner && open && (
        <CountdownControls
          code={session.code}
          by={runner}
          running={!!countdown}
          onChanged={props.onChanged}
        />
      )}
      <Problem error={action.error} />
    </section>
  );
}

/** The owner votes too: joining makes them the room's moderator participant. */
function JoinTheVote(props: { code: string; token: string; onJoin(seat: Seat, p: Participant): void }) {
  const action = useAction();
  const m = t();
  return (
    <>
      <button
        type="button"
        disabled={action.busy}
        onClick={() =>
          void action.run(async () => {
            const { participant } = await joinSession(props.code, props.token, {});
            props.onJoin({ id: participant.id, token: participant.token }, participant);
          })
        }
      >
        {m.voteToo}
      </button>
      <Problem error={action.error} />
    </>
  );
}
