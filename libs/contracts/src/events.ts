import { z } from 'zod';

const isoDate = z.iso.datetime({ offset: true });
const sessionStatus = z.enum(['active', 'paused', 'completed', 'archived']);
const participantRole = z.enum(['moderator', 'participant', 'observer']);
/** Where a story stands: waiting, open for votes (the session's current story), or revealed. */
export const storyStatus = z.enum(['pending', 'voting', 'revealed']);
export type StoryStatus = z.infer<typeof storyStatus>;

/** What other units keep of a session (the stories service's read model is built from it). */
export const sessionSnapshot = z.object({
  id: z.uuid(),
  code: z.string().length(6),
  owner_id: z.string(),
  name: z.string(),
  status: sessionStatus,
  voting_system: z.string(),
  deck: z.array(z.string()),
  record_vote_names: z.boolean(),
  auto_reveal: z.boolean(),
  voteby_enabled: z.boolean(),
  vote_by_at: isoDate.nullable(),
  updated_at: isoDate,
});
export type SessionSnapshot = z.infer<typeof sessionSnapshot>;

const voteStats = z.object({
  votes_cast: z.number().int(),
  total_participants: z.number().int(),
  all_voted: z.boolean(),
});
const revealedVote = z.object({
  participant: z.object({ id: z.number().int().nullable(), name: z.string().nullable() }),
  value: z.string(),
});
const storySummary = z.object({
  id: z.uuid(),
  title: z.string(),
  status: storyStatus,
  position: z.number().int(),
});

/** One zod schema per event type: the public ones (what webhooks can subscribe to) and the platform's own. */
export const eventSchemas = {
  'user.created': z.object({ user: z.object({ id: z.string(), email: z.string(), name: z.string() }) }),
  'token.revoked': z.object({
    token_id: z.string(),
    user_id: z.string(),
    kind: z.enum(['access', 'api', 'mcp']),
  }),
  'session.created': z.object({ session: sessionSnapshot }),
  'session.updated': z.object({ session: sessionSnapshot, changed: z.array(z.string()) }),
  'session.archived': z.object({ session: sessionSnapshot }),
  'session.unarchived': z.object({ session: sessionSnapshot }),
  /**
   * A session that never came to be: created for a template whose stories could not all be added, and
   * taken back (never announced by session.created). Units drop whatever they kept of it.
   */
  'session.discarded': z.object({ session_id: z.uuid(), session_code: z.string() }),
  'participant.joined': z.object({
    session_id: z.uuid(),
    session_code: z.string(),
    participant: z.object({ id: z.number().int(), name: z.string(), role: participantRole }),
  }),
  /** The owner removed a participant; its votes on rounds not revealed went with it. */
  'participant.left': z.object({
    session_id: z.uuid(),
    session_code: z.string(),
    participant: z.object({ id: z.number().int(), name: z.string(), role: participantRole }),
  }),
  /** The owner changed a participant's role (an observer's open votes went). */
  'participant.updated': z.object({
    session_id: z.uuid(),
    session_code: z.string(),
    participant: z.object({ id: z.number().int(), name: z.string(), role: participantRole }),
    previous_role: participantRole,
  }),
  /**
   * A participant's presence in the room: `connected` once one of its room streams (opened with its
   * participant token) is open on any replica, `false` a few seconds after its last one closed.
   */
  'participant.presence': z.object({
    session_id: z.uuid(),
    session_code: z.string(),
    participant: z.object({ id: z.number().int(), name: z.string() }),
    connected: z.boolean(),
  }),
  /**
   * The owner started (or started again) a countdown for the open round: at `ends_at` the round is
   * revealed (`at_zero: reveal`) or closed to votes (`close`). It ends with its round.
   */
  'countdown.started': z.object({
    session_id: z.uuid(),
    session_code: z.string(),
    countdown: z.object({
      story_id: z.uuid(),
      ends_at: isoDate,
      seconds: z.number().int(),
      at_zero: z.enum(['reveal', 'close']),
    }),
  }),
  /** The owner stopped the round's countdown before its end (a countdown also ends with its round). */
  'countdown.ended': z.object({ session_id: z.uuid(), session_code: z.string(), story_id: z.uuid() }),
  /** Never carries the vote's value: votes are secret until reveal. */
  'vote.cast': z.object({
    session_id: z.uuid(),
    session_code: z.string(),
    story_id: z.uuid(),
    participant: z.object({ id: z.number().int(), name: z.string() }),
    stats: voteStats,
    /** Whether the session reveals by itself once everyone has voted (so other units need not look it up). */
    auto_reveal: z.boolean().optional(),
  }),
  'story.created': z.object({ session_id: z.uuid(), session_code: z.string(), story: storySummary }),
  'story.revealed': z.object({
    session_id: z.uuid(),
    session_code: z.string(),
    story: storySummary.extend({
      final_estimate: z.string().nullable(),
      revealed_at: isoDate,
      votes: z.array(revealedVote),
      /**
       * The story's text as revealed: a unit that keeps revealed stories (the assistant's history)
       * keeps them from the event, without reading each one back.
       */
      description: z.string().optional(),
      acceptance_criteria: z.string().optional(),
    }),
    next_story_id: z.uuid().nullable(),
    /** The session's setting at reveal: when false, consumers that keep history drop the voters' names. */
    record_vote_names: z.boolean().optional(),
  }),
  'story.reset': z.object({ session_id: z.uuid(), session_code: z.string(), story: storySummary }),
  'story.activated': z.object({
    session_id: z.uuid(),
    session_code: z.string(),
    story: storySummary,
    previous_story_id: z.uuid().nullable(),
  }),
  /** Title, description, acceptance criteria or position changed (status changes have events of their own). */
  'story.updated': z.object({
    session_id: z.uuid(),
    session_code: z.string(),
    story: storySummary,
    changed: z.array(z.string()),
  }),
  /** next_story_id: the story that became `voting` because the deleted one was the current one, or null. */
  'story.deleted': z.object({
    session_id: z.uuid(),
    session_code: z.string(),
    story: storySummary,
    next_story_id: z.uuid().nullable(),
  }),
  'import.completed': z.object({
    session_id: z.uuid(),
    session_code: z.string(),
    provider: z.string(),
    connection_id: z.string().nullable(),
    story_ids: z.array(z.uuid()),
  }),
  'estimates.synced': z.object({
    session_id: z.uuid(),
    session_code: z.string(),
    synced: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
  }),
} as const;

export type EventType = keyof typeof eventSchemas;
export type EventData<T extends EventType> = z.infer<(typeof eventSchemas)[T]>;

/** The types a webhook can subscribe to (the public ones). */
export const publicEventTypes = [
  'session.created',
  'session.updated',
  'session.archived',
  'session.unarchived',
  'participant.joined',
  'vote.cast',
  'story.created',
  'story.revealed',
  'story.reset',
  'import.completed',
  'estimates.synced',
] as const satisfies readonly EventType[];

export function parseEventData<T extends EventType>(type: T, data: unknown): EventData<T> {
  return eventSchemas[type].parse(data) as EventData<T>;
}
