import { z } from 'zod';
import { roomStorySchema as roomStory } from '@pp/contracts';
import { ROOM_CONTROL_DOC, ROOM_CONTROL_REFUSAL, type UnitDocs } from '@pp/http';
import {
  analytics,
  codeParams,
  createStoryBody,
  exportCsv,
  exportedStory,
  exportQuery,
  exportSession,
  quickVoteBody,
  revealedStory,
  story,
  storyParams,
  storySummary,
  updateStoryBody,
} from './schemas.ts';

const OWNER = { 403: { description: 'Not the owner of the session (`forbidden`)' } };
const STORY_404 = { 404: { description: 'Unknown story (`story_not_found`)' } };
const SESSION_404 = { 404: { description: 'Unknown session code (`session_not_found`)' } };
const ARCHIVED = 'The session is archived: read-only until it is unarchived (`session_archived`)';
/** The 409s of a change of a session's stories: an archived session's, and the change's own. */
const conflicts = (...own: string[]) => ({ 409: { description: [...own, ARCHIVED].join('; ') } });
const ALREADY_REVEALED = 'The story is already revealed (`story_already_revealed`)';
const KEPT_VOTES =
  ' In an auto-reveal session, a story made current whose kept votes already complete its round is revealed ' +
  'before the answer, which shows it `revealed`; the next pending story is current then.';
const SESSIONS_DOWN = {
  503: { description: 'The sessions service did not answer (`sessions_unavailable`)' },
};

/** The documentation of each public stories endpoint, keyed like the gateway's route table ("METHOD /path"). */
export const storiesApi = {
  'POST /sessions/{code}/stories': {
    summary: 'Add a story (owner)',
    description:
      'The first story (or one added while none is current) becomes `voting`; later ones are `pending`.',
    params: codeParams,
    body: createStoryBody,
    responses: {
      201: { description: 'The story', payload: z.object({ story }) },
      ...OWNER,
      ...SESSION_404,
      ...conflicts(),
    },
  },
  'POST /sessions/{code}/quick-vote': {
    summary: 'Start a round without a prepared story (owner)',
    description:
      'One request: a story titled "Quick vote HH:MM" (UTC, the time it starts; or `title`) is added at the ' +
      'end of the queue and made the current one, open for votes; the story that was current goes back to ' +
      '`pending` with its votes kept. Announced by `story.created` and, when another story was current, ' +
      '`story.activated`. Rename it later with PATCH /stories/{story}.',
    params: codeParams,
    body: quickVoteBody,
    responses: {
      201: { description: 'The new current story', payload: z.object({ story }) },
      ...OWNER,
      ...SESSION_404,
      ...conflicts(),
      ...SESSIONS_DOWN,
    },
  },
  'GET /sessions/{code}/stories': {
    public: true,
    summary: "The room's view of the stories (public)",
    params: codeParams,
    responses: {
      200: { description: 'Stories in queue order', payload: z.object({ stories: z.array(roomStory) }) },
      ...SESSION_404,
    },
  },
  'GET /stories/{story}': {
    summary: 'A story (owner)',
    params: storyParams,
    responses: { 200: { description: 'The story', payload: z.object({ story }) }, ...OWNER, ...STORY_404 },
  },
  'PATCH /stories/{story}': {
    summary: 'Edit a story or move it in the queue (owner)',
    params: storyParams,
    body: updateStoryBody,
    responses: {
      200: { description: 'The story', payload: z.object({ story }) },
      ...OWNER,
      ...STORY_404,
      ...conflicts(),
    },
  },
  'DELETE /stories/{story}': {
    summary: 'Delete a story (owner)',
    description:
      'When it was the current story, the next pending one becomes current (`next_story`).' + KEPT_VOTES,
    params: storyParams,
    responses: {
      200: {
        description: 'The deleted story',
        payload: z.object({ story: storySummary, next_story: storySummary.nullable() }),
      },
      ...OWNER,
      ...STORY_404,
      ...conflicts(),
    },
  },
  'POST /stories/{story}/reveal': {
    summary: 'Reveal the votes and compute the consensus (owner or moderator)',
    description:
      'Seals the round (a vote cast at the same moment is either included or refused), computes the final estimate ' +
      'and makes the next pending story current (`next_story`). Any story not yet revealed can be: a `pending` one ' +
      'is revealed with the votes it kept (none when it was never open, so its final estimate is null), ' +
      '`next_story` is null and the current story stays current. The final estimate is the consensus over the ' +
      "session's deck: `?` and `coffee` do not count; the one most frequent card wins; on a tie, the median of the " +
      'counted votes in deck order (the upper of the two middle ones for an even count); null when no vote counts.' +
      KEPT_VOTES +
      ROOM_CONTROL_DOC,
    orParticipantToken: true,
    params: storyParams,
    responses: {
      200: {
        description: 'The revealed story',
        payload: z.object({ story: revealedStory, next_story: storySummary.nullable() }),
      },
      ...ROOM_CONTROL_REFUSAL,
      ...STORY_404,
      ...conflicts(ALREADY_REVEALED),
      ...SESSIONS_DOWN,
    },
  },
  'POST /stories/{story}/reset': {
    summary: 'Clear the votes and vote again (owner or moderator)',
    description:
      'Also after a reveal (a re-vote): the final estimate goes back to null and the story becomes current.' +
      ROOM_CONTROL_DOC,
    orParticipantToken: true,
    params: storyParams,
    responses: {
      200: { description: 'The story, open for voting', payload: z.object({ story }) },
      ...ROOM_CONTROL_REFUSAL,
      ...STORY_404,
      ...conflicts(),
      ...SESSIONS_DOWN,
    },
  },
  'POST /stories/{story}/activate': {
    summary: 'Make this the current story (owner or moderator)',
    description:
      'The previous current story goes back to `pending` with its votes kept.' +
      KEPT_VOTES +
      ROOM_CONTROL_DOC,
    orParticipantToken: true,
    params: storyParams,
    responses: {
      200: { description: 'The story, now current', payload: z.object({ story }) },
      ...ROOM_CONTROL_REFUSAL,
      ...STORY_404,
      ...conflicts(ALREADY_REVEALED),
    },
  },
  'GET /sessions/{code}/analytics': {
    summary: 'Estimate distribution, outliers and history (owner)',
    description:
      'Always current: a change to the stories, the deck or record_vote_names shows in the next answer. ' +
      'A long answer (8 KB or more) is gzipped when the request accepts gzip (Content-Encoding: gzip).',
    params: codeParams,
    responses: {
      200: { description: 'The analytics of the session', payload: z.object({ analytics }) },
      ...OWNER,
      ...SESSION_404,
    },
  },
  'GET /sessions/{code}/export': {
    summary: 'Export every story with status, final estimate and votes (owner)',
    description:
      '`format=csv` (default): a `text/csv; charset=utf-8` attachment, a header row then one row per story. ' +
      '`format=json`: the envelope (`application/json`).',
    params: codeParams,
    query: exportQuery,
    responses: {
      200: {
        description:
          'The stories: `text/csv` with format=csv (the default), `application/json` with format=json',
        payload: z.object({ session: exportSession, stories: z.array(exportedStory) }),
        content: { 'text/csv': exportCsv },
        headers: { 'Content-Disposition': 'attachment; filename="session-<code>-stories.csv" (csv only)' },
      },
      ...OWNER,
      ...SESSION_404,
    },
  },
} satisfies UnitDocs;
