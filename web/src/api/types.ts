/** The shapes of the public API's answers that the room reads (see /openapi.json). */

export type VotingSystem = 'fibonacci' | 'tshirt' | 'powers_of_two' | 'custom';
export type SessionStatus = 'active' | 'paused' | 'completed' | 'archived';
export type StoryStatus = 'pending' | 'voting' | 'revealed';
export type Role = 'moderator' | 'participant' | 'observer';

export interface User {
  id: string;
  email: string;
  name: string;
}

export interface StorySummary {
  id: string;
  title: string;
  status: StoryStatus;
  position: number;
}

/** What anyone with the code sees; the owner gets the full record (`owner_id` and the settings). */
export interface Session {
  id: string;
  name: string;
  status: SessionStatus;
  code: string;
  participants_count: number;
  current_story: StorySummary | null;
  voting_system: VotingSystem;
  deck: string[];
  voteby_enabled: boolean;
  vote_by_at: string | null;
  owner_id?: string;
  auto_reveal?: boolean;
  record_vote_names?: boolean;
  custom_deck_name?: string | null;
}

export interface Participant {
  id: number;
  name: string;
  role: Role;
}

export interface VoteStats {
  votes_cast: number;
  total_participants: number;
  all_voted: boolean;
}

export interface RevealedVote {
  participant: { id: number | null; name: string | null };
  value: string;
}

/** The room's view of a story: votes only once revealed. */
export interface RoomStory extends StorySummary {
  final_estimate: string | null;
  votes: RevealedVote[] | null;
}

export interface ValueCount {
  value: string;
  count: number;
}

export interface Analytics {
  distribution: ValueCount[];
  vote_distribution: ValueCount[];
  outliers: Array<{
    story_id: string;
    title: string;
    participant: { name: string | null };
    value: string;
    final_estimate: string | null;
    distance: number;
  }>;
  history: Array<{
    story_id: string;
    title: string;
    final_estimate: string | null;
    revealed_at: string;
    agreement: number | null;
  }>;
  totals: { stories: number; revealed: number; points: number };
}

/** The story open for votes when the room was read: who has voted (never what) and the counts. */
export interface OpenRound {
  story_id: string;
  voted: number[];
  stats: VoteStats;
}

/** A room in one read (GET /sessions/{code}/room); `stories` null when the stories unit did not answer. */
export interface RoomRead {
  session: Session;
  participants: Participant[];
  stories: RoomStory[] | null;
  round: OpenRound | null;
  /** Where the live stream resumes from this read (Last-Event-ID). */
  last_event_id: string;
}

/** Where a browser sits in a room: kept so that a reload keeps the seat (the token is the credential). */
export interface Seat {
  id: number;
  token: string;
}
