import { z } from 'zod';
import { roomStorySchema as roomStory } from '@pp/contracts';
import type { UnitDocs } from '@pp/http';
import { codeParams, roomParticipant, sessionForCaller, voteStats } from './schemas.ts';

const openRound = z
  .object({
    story_id: z.uuid(),
    voted: z
      .array(z.number().int())
      .meta({ description: 'The participants who have voted so far (never the values), in voting order' }),
    stats: voteStats,
  })
  .meta({ id: 'OpenRound' });

/** The documentation of the room read: everything a page needs to open a room, in one request. */
export const roomApi = {
  'GET /sessions/{code}/room': {
    public: true,
    summary: 'The whole room in one read, and where its live stream resumes',
    description:
      'The session (the full record for its owner, the public fields for anyone else), every participant ' +
      'in joining order, the stories as GET /sessions/{code}/stories shows them, the open round (who voted, ' +
      'never what), and `last_event_id`: open GET /sessions/{code}/events with it as `Last-Event-ID` and the ' +
      'stream starts with every event since this read, then goes live, on any replica: nothing is missed. ' +
      'An event whose change the read already shows may come again; applying it again changes nothing. ' +
      '`stories` is null when the stories unit could not answer within 3 s: read GET /sessions/{code}/stories ' +
      'then.',
    params: codeParams,
    responses: {
      200: {
        description: 'The room',
        payload: z.object({
          session: sessionForCaller,
          participants: z.array(roomParticipant),
          stories: z.array(roomStory).nullable(),
          round: openRound.nullable().meta({ description: 'The story open for votes, if any' }),
          last_event_id: z
            .string()
            .meta({ description: 'Send as Last-Event-ID to the live room to resume from this read' }),
        }),
      },
      404: { description: 'Unknown session code (`session_not_found`)' },
    },
  },
} satisfies UnitDocs;
