import { z } from 'zod';
import { CUSTOM_DECK, votingSystems } from '../domain/deck.ts';
import { participantRoles } from '../domain/vote-rules.ts';
import type { RouteDoc } from '@pp/http';

/**
 * The sessions service's public API as zod schemas: the routes validate with them and the gateway
 * builds its OpenAPI document from them (payloads are the resource-named keys of the envelope).
 */
const isoDate = z.iso.datetime({ offset: true });
export const sessionStatuses = ['active', 'paused', 'completed', 'archived'] as const;

const customDeckValues = z
  .array(z.string().trim().min(1).max(CUSTOM_DECK.maxCardLength))
  .min(CUSTOM_DECK.minCards)
  .max(CUSTOM_DECK.maxCards)
  .refine((cards) => new Set(cards).size === cards.length, 'cards must be unique')
  .meta({
    description: `Cards of the custom deck in order: ${CUSTOM_DECK.minCards}..${CUSTOM_DECK.maxCards} unique strings`,
  });

/** The id of a folder or a workspace (a 32-bit key: a larger number cannot name one). */
const rowId = z.number().int().positive().max(2_147_483_647);

/** Settable on creation and by update (decisions section 4). */
const settings = {
  description: z.string().max(10_000),
  workspace_id: rowId.nullable(),
  folder_id: rowId.nullable(),
  voting_system: z.enum(votingSystems).meta({
    description: 'fibonacci (default), tshirt, powers_of_two, or custom (needs custom_deck_values)',
  }),
  custom_deck_name: z.string().trim().min(1).max(64).nullable(),
  custom_deck_values: customDeckValues.nullable(),
  record_vote_names: z.boolean().meta({ description: 'Keep voter names in history and exports' }),
  voteby_enabled: z.boolean(),
  vote_by_at: isoDate.nullable().meta({ description: 'Vote-by deadline, in the future when set' }),
  auto_reveal: z.boolean().meta({ description: 'Reveal as soon as every voting participant has voted' }),
  require_participant_token: z
    .boolean()
    .meta({ description: 'Votes must carry the X-Participant-Token header of the participant' }),
};
const optionalSettings = Object.fromEntries(Object.entries(settings).map(([k, v]) => [k, v.optional()])) as {
  [K in keyof typeof settings]: z.ZodOptional<(typeof settings)[K]>;
};
const name = z.string().trim().min(1).max(200);

/** Fields not listed (id, code, owner_id, ...) are refused with 422. */
export const createSessionBody = z
  .strictObject({ name, ...optionalSettings })
  .meta({ id: 'CreateSessionRequest' });
export const updateSessionBody = z
  .strictObject({ name: name.optional(), status: z.enum(sessionStatuses).optional(), ...optionalSettings })
  .meta({ id: 'UpdateSessionRequest' });

export const listSessionsQuery = z.object({
  folder_id: z.coerce.number().int().positive().optional(),
  status: z.enum(sessionStatuses).optional(),
  sort: z.enum(['created_at', 'updated_at', 'name']).default('created_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
  per_page: z.coerce.number().int().min(1).max(100).default(15),
  page: z.coerce.number().int().min(1).default(1),
});

export const codeParams = z.object({
  code: z.string().meta({ description: 'The 6-character session code (any case)' }),
});
export const participantParams = codeParams.extend({ id: z.coerce.number().int().positive() });

export const joinBody = z
  .object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .optional()
      .meta({ description: 'Required without a bearer token; with one the profile name is used' }),
    role: z
      .enum(['participant', 'observer'])
      .optional()
      .meta({ description: 'observer: listed, does not vote' }),
  })
  .meta({ id: 'JoinRequest' });

export const voteBody = z
  .object({
    participant_id: z.number().int().positive(),
    vote: z
      .string()
      .min(1)
      .max(CUSTOM_DECK.maxCardLength)
      .meta({ description: "One of the session's cards" }),
  })
  .meta({ id: 'VoteRequest' });

export const participantRoleBody = z
  .object({ role: z.enum(participantRoles) })
  .meta({ id: 'ParticipantRoleRequest' });

export const internalSessionParams = z.object({ codeOrId: z.string() });
export const roundParams = z.object({ sessionId: z.uuid(), storyId: z.uuid() });

// ---- responses ----

export const currentStory = z
  .object({
    id: z.uuid(),
    title: z.string(),
    status: z.enum(['pending', 'voting', 'revealed']),
    position: z.number().int(),
  })
  .meta({ id: 'CurrentStory' });

export const publicSession = z
  .object({
    id: z.uuid(),
    name: z.string(),
    status: z.enum(sessionStatuses),
    code: z.string().length(6),
    participants_count: z.number().int(),
    current_story: currentStory.nullable(),
    voting_system: z.enum(votingSystems),
    deck: z.array(z.string()).meta({ description: 'The cards a vote can be, in deck order' }),
    voteby_enabled: z.boolean(),
    vote_by_at: isoDate.nullable(),
  })
  .meta({ id: 'PublicSession' });

export const session = publicSession
  .extend({
    owner_id: z.string(),
    description: z.string(),
    workspace_id: z.number().int().nullable(),
    folder_id: z.number().int().nullable(),
    record_vote_names: z.boolean(),
    custom_deck_name: z.string().nullable(),
    custom_deck_values: z.array(z.string()).nullable(),
    auto_reveal: z.boolean(),
    require_participant_token: z.boolean(),
    created_at: isoDate,
    updated_at: isoDate,
  })
  .meta({ id: 'Session' });

export const participant = z
  .object({ id: z.number().int(), name: z.string(), role: z.enum(participantRoles) })
  .meta({ id: 'Participant' });

export const joinedParticipant = participant
  .extend({
    token: z
      .string()
      .meta({ description: 'Identifies this participant: send it as X-Participant-Token when voting' }),
  })
  .meta({ id: 'JoinedParticipant' });

export const vote = z
  .object({
    id: z.number().int(),
    participant_id: z.number().int(),
    story_id: z.uuid(),
    value: z.string(),
    updated_at: isoDate,
  })
  .meta({ id: 'Vote' });

export const voteStats = z
  .object({ votes_cast: z.number().int(), total_participants: z.number().int(), all_voted: z.boolean() })
  .meta({ id: 'VoteStats', description: 'Observers are not counted' });

export const pageMeta = z
  .object({
    current_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    last_page: z.number().int(),
  })
  .meta({ id: 'PageMeta' });

export const sealedRound = z.object({
  votes: z.array(
    z.object({
      participant: participant,
      value: z.string(),
      updated_at: isoDate,
    }),
  ),
  stats: voteStats,
});

type Doc = RouteDoc;

const sessionPayload = z.object({ session });
const notFound = { description: 'Unknown session code (`session_not_found`)' };
const notOwner = { description: 'Not the owner of the session (`forbidden`)' };

/** The documentation of each public sessions endpoint, keyed like the gateway's route table ("METHOD /path"). */
export const sessionsApi: Record<string, Doc> = {
  'GET /sessions': {
    summary: "The caller's sessions, paginated",
    query: listSessionsQuery,
    responses: {
      200: {
        description: 'A page of sessions',
        payload: z.object({ sessions: z.array(session), meta: pageMeta }),
      },
      400: { description: 'A query value of the wrong type, e.g. per_page=abc (`invalid_query`)' },
      422: { description: 'A query value out of range, e.g. per_page=0 or 101' },
    },
  },
  'POST /sessions': {
    summary: 'Create a session (status active, a fresh 6-character code)',
    description: 'Settings not given start from the defaults: the fibonacci deck, every option off.',
    body: createSessionBody,
    responses: {
      201: { description: 'The session (full record)', payload: sessionPayload },
      422: { description: 'Invalid fields, unknown fields, or a custom deck without cards' },
    },
  },
  'GET /sessions/{code}': {
    summary: 'Look a session up by code',
    description: 'Everyone gets the public fields; the owner gets the full record.',
    params: codeParams,
    responses: {
      200: {
        description: 'The session (PublicSession, or Session for the owner)',
        payload: z.object({ session: publicSession }),
      },
      404: notFound,
    },
  },
  'PATCH /sessions/{code}': {
    summary: 'Update, archive or unarchive a session (owner)',
    description:
      'Any settable field; `status` may be active, paused, completed or archived. Fields that cannot be set (id, code, owner_id, ...) are refused with 422.',
    params: codeParams,
    body: updateSessionBody,
    responses: {
      200: { description: 'The session (full record)', payload: sessionPayload },
      403: notOwner,
      404: notFound,
      422: {
        description: 'Invalid or unknown fields; vote_by_at in the past; custom deck missing or invalid',
      },
    },
  },
  'POST /sessions/{code}/join': {
    summary: 'Join a session',
    description:
      'With a bearer token: the profile name, the owner as moderator, the same participant when joining again (with a fresh token). Without: `name` is required.',
    params: codeParams,
    body: joinBody,
    responses: {
      200: {
        description: 'The participant with its token, and the session',
        payload: z.object({ participant: joinedParticipant, session: publicSession }),
      },
      404: notFound,
      409: { description: 'The session is not active (`session_not_active`)' },
      422: { description: 'No name without a bearer token, or an invalid role' },
    },
  },
  'POST /sessions/{code}/vote': {
    summary: 'Cast (or replace) a vote on the current story',
    description:
      "The X-Participant-Token header, when sent, must be the participant's token; with the session setting require_participant_token it is required (403 `participant_token_required`). The value stays secret until reveal.",
    params: codeParams,
    body: voteBody,
    responses: {
      200: {
        description: 'The vote and the round statistics',
        payload: z.object({ vote, stats: voteStats }),
      },
      403: {
        description: '`invalid_participant_token`, `participant_token_required` or `observer_cannot_vote`',
      },
      404: {
        description: '`session_not_found`, or `participant_not_found` (not a participant of this session)',
      },
      409: {
        description: '`session_not_active`, `voting_closed`, `no_open_story` or `story_already_revealed`',
      },
      422: { description: "The vote is not one of the session's cards (errors.vote)" },
    },
  },
  'GET /sessions/{code}/participants': {
    summary: 'Participants of a session',
    params: codeParams,
    responses: {
      200: {
        description: 'Participants, in joining order',
        payload: z.object({ participants: z.array(participant) }),
      },
      404: notFound,
    },
  },
  'GET /sessions/{code}/events': {
    summary: 'Live room: a Server-Sent Events stream of the session',
    description:
      'Events (SSE `event:` = type, `id:` = event id, `data:` = JSON): participant.joined, participant.left (removed by the owner), participant.updated (role changed, with previous_role), vote.cast (who voted and the new stats, never the value), story.created, story.updated, story.activated, story.reset, story.revealed (with votes and final_estimate), story.deleted, session.updated. A client that reconnects with Last-Event-ID gets what it missed (up to a day back); comments every 15 s keep an idle stream open.',
    params: codeParams,
    responses: {
      200: { description: 'text/event-stream', headers: { 'Content-Type': 'text/event-stream' } },
      404: notFound,
    },
  },
  'PATCH /sessions/{code}/participants/{id}': {
    summary: "Change a participant's role (owner)",
    description:
      'moderator hands the role over (other moderators become participants); an observer loses its open votes.',
    params: participantParams,
    body: participantRoleBody,
    responses: {
      200: { description: 'The participant', payload: z.object({ participant }) },
      403: notOwner,
      404: { description: '`session_not_found` or `participant_not_found`' },
    },
  },
  'DELETE /sessions/{code}/participants/{id}': {
    summary: 'Remove a participant (owner); its votes on unrevealed stories go too',
    params: participantParams,
    responses: {
      200: { description: 'The removed participant', payload: z.object({ participant }) },
      403: notOwner,
      404: { description: '`session_not_found` or `participant_not_found`' },
    },
  },
};
