import { z } from 'zod';
import { optionalPageQuery, pageMetaSchema, urlInteger, type UnitDocs } from '@pp/http';
import { meetingApi } from './meeting.docs.ts';
import { organisingApi } from './organising.docs.ts';
import { roomApi } from './room.docs.ts';
import {
  codeParams,
  createSessionBody,
  joinBody,
  joinedParticipant,
  listSessionsQuery,
  participant,
  participantParams,
  participantRoleBody,
  roomParticipant,
  session,
  sessionForCaller,
  updateSessionBody,
  vote,
  voteBody,
  voteStats,
} from './schemas.ts';

const sessionPayload = z.object({ session });
const notFound = { description: 'Unknown session code (`session_not_found`)' };
const linkNotFound = {
  description:
    'No folder or workspace has this folder_id or workspace_id (`folder_not_found`, `workspace_not_found`)',
};
const linkNotOwned = { description: "A folder_id or workspace_id of another account's (`forbidden`)" };
const notOwner = { description: 'Not the owner of the session (`forbidden`)' };

const archivedRoom = {
  description: 'The session is archived: its room is kept as it is (`session_archived`)',
};

/** The documentation of each public sessions endpoint, keyed like the gateway's route table ("METHOD /path"). */
export const sessionsApi = {
  'GET /sessions': {
    summary: "The caller's sessions, paginated",
    query: listSessionsQuery,
    responses: {
      200: {
        description: 'A page of sessions',
        payload: z.object({ sessions: z.array(session), meta: pageMetaSchema }),
      },
      403: { description: "folder_id is another account's folder (`forbidden`)" },
      404: { description: 'No folder has this folder_id (`folder_not_found`)' },
      400: { description: 'A query value of the wrong type, e.g. per_page=abc (`invalid_query`)' },
      422: { description: 'A query value out of range, e.g. per_page=0 or 101' },
    },
  },
  'POST /sessions': {
    summary: 'Create a session (status active, a fresh 6-character code)',
    description:
      "In the caller's workspace. Each setting not given comes from the workspace defaults (GET /workspace), else the built-in ones: the fibonacci deck, every option off. With voteby_enabled and no vote_by_at, the deadline is the defaults' vote_by_minutes after creation.",
    body: createSessionBody,
    responses: {
      201: { description: 'The session (full record)', payload: sessionPayload },
      403: linkNotOwned,
      404: linkNotFound,
      422: { description: 'Invalid fields, unknown fields, or a custom deck without cards' },
    },
  },
  'GET /sessions/{code}': {
    public: true,
    summary: 'Look a session up by code',
    description: 'Everyone gets the public fields; the owner gets the full record.',
    params: codeParams,
    responses: {
      200: {
        description: 'The session (Session for the owner, PublicSession for anyone else)',
        payload: z.object({ session: sessionForCaller }),
      },
      404: notFound,
    },
  },
  'PATCH /sessions/{code}': {
    summary: 'Update, archive or unarchive a session (owner)',
    description:
      'Any settable field; `status` may be active, paused, completed or archived. Fields that cannot be set (id, code, owner_id, ...) are refused with 422. ' +
      "An archive makes the session's stories read-only as well: once it answers, every change of them is refused with 409 `session_archived`.",
    params: codeParams,
    body: updateSessionBody,
    responses: {
      200: { description: 'The session (full record)', payload: sessionPayload },
      403: { description: `${notOwner.description}; ${linkNotOwned.description}` },
      404: { description: `${notFound.description}; ${linkNotFound.description}` },
      409: {
        description:
          'The session is archived: read-only until a change unarchives it; only folder_id and workspace_id ' +
          'may change meanwhile (`session_archived`). A deck change (voting_system, custom_deck_values) that ' +
          'would leave votes not revealed yet (the open story, or a story made pending with its votes kept) ' +
          'outside the new deck (`votes_not_in_deck`: reveal those stories or clear their votes first; adding ' +
          'cards is always taken)',
      },
      422: {
        description: 'Invalid or unknown fields; vote_by_at in the past; custom deck missing or invalid',
      },
      503: {
        description:
          'An archive while the stories service cannot be reached (`stories_unavailable`): nothing changed, try again shortly',
      },
    },
  },
  'POST /sessions/{code}/join': {
    public: true,
    summary: 'Join a session',
    description:
      'With a bearer token: the profile name, the owner as moderator, the same participant when joining again (with a fresh token). Without: `name` is required. ' +
      "The token is signed for this room: sent as `X-Participant-Token` with the room's requests (reads, votes, the live stream), they count against this participant's own rate-limit allowance.",
    params: codeParams,
    body: joinBody,
    responses: {
      200: {
        description:
          'The participant with its token, and the session (Session for the owner, PublicSession for anyone else)',
        payload: z.object({ participant: joinedParticipant, session: sessionForCaller }),
      },
      404: notFound,
      409: {
        description:
          'The session is not active (`session_not_active`), or the room is full (`room_full`): it holds at ' +
          'most ROOM_MAX_PARTICIPANTS participants (1,000 by default), observers and the moderator included. ' +
          'A signed-in user already in the room still gets its participant back.',
      },
      422: { description: 'No name without a bearer token, or an invalid role' },
      503: {
        description:
          'Joins of one room made at the same moment take turns, a few milliseconds each, and a join that ' +
          'waited 8 s for its turn gives up with `service_unavailable` and `Retry-After: 1`, having done ' +
          'nothing: joining again is safe. Also when the database cannot be reached.',
      },
    },
  },
  'POST /sessions/{code}/vote': {
    public: true,
    summary: 'Cast (or replace) a vote on the current story',
    description:
      "The X-Participant-Token header, when sent, must be the participant's token (else 403 `invalid_participant_token`). " +
      'A vote without it is taken, so that a client that sends only `participant_id` keeps working, until that participant has voted with its token once: ' +
      'from then on every vote for it needs the token (403 `participant_token_required`), since participant ids are small numbers the room shows to everyone. ' +
      'With the session setting require_participant_token the token is required from the first vote (403 `participant_token_required`). The value stays secret until reveal.',
    params: codeParams,
    body: voteBody,
    responses: {
      200: {
        description: 'The vote and the round statistics',
        payload: z.object({ vote, stats: voteStats }),
      },
      403: {
        description:
          '`invalid_participant_token`, `participant_token_required` (the session requires the token, or the participant has voted with it before) or `observer_cannot_vote`',
      },
      404: {
        description: '`session_not_found`, or `participant_not_found` (not a participant of this session)',
      },
      409: {
        description: '`session_not_active`, `voting_closed`, `no_open_story` or `story_already_revealed`',
      },
      422: { description: "The vote is not one of the session's cards (errors.vote)" },
      503: {
        description:
          '`round_not_confirmed`: the current story was made current a moment ago by a change the stories service has not confirmed yet (or could not make: the round is then stated again within seconds), or `stories_unavailable` while that cannot be asked. Nothing was recorded: try again after Retry-After',
      },
    },
  },
  'GET /sessions/{code}/participants': {
    public: true,
    summary: 'Participants of a session (the whole room, or a page of it)',
    description:
      'Without `page` and `per_page`: every participant of the room, in joining order. With either: that ' +
      'page (per_page 15 when only page is given), with `meta` as the session list has it. A room holds ' +
      'at most ROOM_MAX_PARTICIPANTS participants (1,000 by default), observers and the moderator included.',
    params: codeParams,
    query: optionalPageQuery,
    responses: {
      200: {
        description: 'Participants, in joining order; `meta` only when a page was asked for',
        payload: z.object({ participants: z.array(roomParticipant), meta: pageMetaSchema.optional() }),
      },
      400: { description: 'A query value of the wrong type, e.g. per_page=abc (`invalid_query`)' },
      404: notFound,
      422: { description: 'A query value out of range, e.g. per_page=0 or 101' },
    },
  },
  'GET /sessions/{code}/events': {
    public: true,
    summary: 'Live room: a Server-Sent Events stream of the session',
    description:
      'Events (SSE `event:` = type, `id:` = event id, `data:` = JSON): participant.joined, participant.left (removed by the owner), participant.updated (role changed, with previous_role: a hand-over of the moderator role gives one for each, the new moderator and the one it was taken from), participant.presence ({participant: {id, name}, connected}: the first stream of a participant opened with its X-Participant-Token, on any replica, announces it connected; closing its last one announces it away after a grace of PRESENCE_GRACE_MS, 5 s by default, so a reconnect does not flicker), countdown.started ({countdown: {story_id, ends_at, seconds, at_zero}}) and countdown.ended ({story_id}: stopped by the owner; a countdown also ends with the story.revealed, story.reset, story.activated or story.deleted of its round), vote.cast (who voted and the stats of the round as the event goes out, never the value: counted again as it is published, so of two votes cast at the same moment the later event counts both), story.created, story.updated, story.activated, story.reset, story.revealed (with votes and final_estimate), story.deleted, session.updated. The events of the session (participants, votes, countdowns) come in the order they were written, and so do those of its stories, whichever replica wrote them. A client that reconnects with Last-Event-ID gets what it missed (up to a day back, at most 1,000 events), in the order a stream open all along got them, then the live events, none twice; comments every 15 s keep an idle stream open. `Last-Event-ID` may also be the `last_event_id` of GET /sessions/{code}/room: the stream starts with every event since that read. A client that stops reading is dropped once more than ROOM_STREAM_MAX_UNSENT_BYTES (1 MiB by default) wait unsent for it; reconnecting with Last-Event-ID, it gets what it missed. A HEAD is answered at once with the status and headers a GET would get, and opens no stream.',
    params: codeParams,
    responses: {
      200: { description: 'text/event-stream', headers: { 'Content-Type': 'text/event-stream' } },
      404: notFound,
    },
  },
  'GET /sessions/{code}/activity': {
    summary: 'Recent events of a session (owner)',
    description:
      'What the live room showed lately, oldest first (but presence: who connected and left): joins, departures and role changes, countdowns, votes (who voted and the ' +
      'counts, never the value), stories added, changed, activated, reset, revealed (with the votes and the final ' +
      'estimate) and deleted, and session updates. Kept for a day. A change shows here as soon as it has been ' +
      'answered (story changes too, which the room hears of a moment later, are read from the stories unit; when ' +
      "it cannot answer within 3 s, the room's own history answers alone and may lack the latest story changes).",
    params: codeParams,
    query: z.object({
      limit: urlInteger(z.number().int().min(1).max(200).default(50)).meta({
        description: 'How many of the latest events',
      }),
    }),
    responses: {
      200: {
        description: 'The events, oldest first',
        payload: z.object({
          activity: z.array(
            z
              .object({
                id: z.uuid().meta({ description: "The event's id (the live room's `id:`)" }),
                type: z.string(),
                occurred_at: z.iso.datetime({ offset: true }),
                data: z
                  .record(z.string(), z.unknown())
                  .meta({ description: 'What the live room showed of it' }),
              })
              .meta({ id: 'ActivityEvent' }),
          ),
        }),
      },
      403: notOwner,
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
      409: archivedRoom,
    },
  },
  'DELETE /sessions/{code}/participants/{id}': {
    summary: 'Remove a participant (owner); its votes on unrevealed stories go too',
    params: participantParams,
    responses: {
      200: { description: 'The removed participant', payload: z.object({ participant }) },
      403: notOwner,
      404: { description: '`session_not_found` or `participant_not_found`' },
      409: archivedRoom,
    },
  },
  ...roomApi,
  ...meetingApi,
  ...organisingApi,
} satisfies UnitDocs;
