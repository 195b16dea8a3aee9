import { z } from 'zod';
import { ROOM_CONTROL_DOC, ROOM_CONTROL_REFUSAL, type UnitDocs } from '@pp/http';
import { codeParams, countdownBody, roundCountdown } from './schemas.ts';

const UNKNOWN = { description: 'Unknown session code (`session_not_found`)' };

/** The documentation of what the owner or the room's moderator runs the meeting with: the round's countdown. */
export const meetingApi = {
  'POST /sessions/{code}/countdown': {
    summary: 'Start a countdown for the open round (owner or moderator)',
    description:
      "A countdown of `seconds` for the current story's round; starting one again replaces it. Everyone sees " +
      'it: `countdown` in GET /sessions/{code} and the room read, and `countdown.started` on the live room ' +
      "(with `ends_at`, the server's time of zero). At zero the round is revealed (`at_zero: reveal`, " +
      'within a second or two: `story.revealed` on the stream) or closed to votes (`close`: a vote gets 409 ' +
      '`voting_closed`, the owner can still reveal, reset or start another countdown). The countdown ends ' +
      'with its round: a reveal, a reset, another story made current or its story deleted ends it (the ' +
      "lookup's `countdown` is null again; the stream shows the round's own event)." +
      ROOM_CONTROL_DOC,
    orParticipantToken: true,
    params: codeParams,
    body: countdownBody,
    responses: {
      200: { description: 'The countdown', payload: z.object({ countdown: roundCountdown }) },
      ...ROOM_CONTROL_REFUSAL,
      404: UNKNOWN,
      409: {
        description:
          'No round is open: no current story, or it is revealed (`no_open_story`); the session is archived (`session_archived`)',
      },
      422: { description: 'seconds not an integer in 5..3600, or at_zero not `reveal` or `close`' },
    },
  },
  'DELETE /sessions/{code}/countdown': {
    summary: "Stop the open round's countdown (owner or moderator)",
    description:
      'The round goes on without one (a round closed to votes by its countdown takes votes again); ' +
      '`countdown.ended` on the live room. `stopped` is false, and nothing is announced, when there was none.' +
      ROOM_CONTROL_DOC,
    orParticipantToken: true,
    params: codeParams,
    responses: {
      200: {
        description: 'Stopped',
        payload: z.object({ stopped: z.boolean(), countdown: z.null() }),
      },
      ...ROOM_CONTROL_REFUSAL,
      404: UNKNOWN,
    },
  },
} satisfies UnitDocs;
