import { participantTokenMatches } from './participant-token.ts';

export type ParticipantRole = 'moderator' | 'participant' | 'observer';
export const participantRoles = ['moderator', 'participant', 'observer'] as const;

/** What a vote is checked against: the session, the voter (if one of its participants) and the open round. */
export interface VoteScene {
  session: {
    status: string;
    deck: readonly string[];
    votebyEnabled: boolean;
    voteByAt: Date | null;
    requireParticipantToken: boolean;
  };
  /** `votedWithToken`: it has voted with its participant token before, so every vote of it needs it. */
  participant: { role: ParticipantRole; tokenHash: string; votedWithToken: boolean } | null;
  /** The current story's round (and its countdown, if any); null when no story is open. */
  round: ({ sealed: boolean } & Partial<RoundCountdown>) | null;
}

export type VoteRefusal =
  | 'participant_not_found'
  | 'participant_token_required'
  | 'invalid_participant_token'
  | 'observer_cannot_vote'
  | 'session_not_active'
  | 'voting_closed'
  | 'invalid_vote'
  | 'no_open_story'
  | 'story_already_revealed';

export const isVotingClosed = (s: Pick<VoteScene['session'], 'votebyEnabled' | 'voteByAt'>, now: Date) =>
  s.votebyEnabled && s.voteByAt !== null && s.voteByAt.getTime() <= now.getTime();

/** A round's countdown, as the round keeps it: when it reaches zero, and what happens then. */
export interface RoundCountdown {
  countdown_ends_at: Date | string | null;
  countdown_at_zero: string | null;
}

const hasReachedZero = (c: RoundCountdown, now: Date) =>
  c.countdown_ends_at !== null && new Date(c.countdown_ends_at).getTime() <= now.getTime();

/** The round's countdown reveals it at zero, and has reached zero. */
export const countdownRevealsNow = (c: RoundCountdown, now: Date) =>
  c.countdown_at_zero === 'reveal' && hasReachedZero(c, now);

/** The round's countdown closes it to votes at zero, and has reached zero. */
export const countdownClosed = (c: RoundCountdown, now: Date) =>
  c.countdown_at_zero === 'close' && hasReachedZero(c, now);

/**
 * Why this vote cannot be taken, or null. Order: who is voting (404, 403), then the session's state
 * (409), the card (422), and last the round (409). A vote without the participant token is taken
 * (clients that know only `participant_id` keep working) unless the session requires the token, or
 * the participant has voted with it before: participant ids are small numbers the room shows, so
 * once the participant has shown it holds its token, nobody else votes for it without that token.
 */
export function voteRefusal(
  scene: VoteScene,
  vote: { value: string; token: string | undefined },
  now: Date,
): VoteRefusal | null {
  const { session, participant, round } = scene;
  if (!participant) return 'participant_not_found';
  if (vote.token === undefined && (session.requireParticipantToken || participant.votedWithToken))
    return 'participant_token_required';
  if (vote.token !== undefined && !participantTokenMatches(vote.token, participant.tokenHash)) {
    return 'invalid_participant_token';
  }
  if (participant.role === 'observer') return 'observer_cannot_vote';
  if (session.status !== 'active') return 'session_not_active';
  if (isVotingClosed(session, now)) return 'voting_closed';
  if (!session.deck.includes(vote.value)) return 'invalid_vote';
  if (!round) return 'no_open_story';
  if (round.sealed) return 'story_already_revealed';
  const countdown = {
    countdown_ends_at: round.countdown_ends_at ?? null,
    countdown_at_zero: round.countdown_at_zero ?? null,
  };
  if (countdownClosed(countdown, now)) return 'voting_closed';
  return null;
}

export interface VoteStats {
  votes_cast: number;
  total_participants: number;
  all_voted: boolean;
}

/** Observers are neither counted nor waited for. */
export const voteStats = (votesCast: number, totalParticipants: number): VoteStats => ({
  votes_cast: votesCast,
  total_participants: totalParticipants,
  all_voted: totalParticipants > 0 && votesCast >= totalParticipants,
});
