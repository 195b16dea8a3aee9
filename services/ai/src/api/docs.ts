import type { RouteDoc, UnitDocs } from '@pp/http';
import type { SuggestionKind } from '../domain/suggestions.ts';
import { codeParams, suggestionBody, suggestionPayload } from './schemas.ts';

const COMMON =
  'Owner only. Review-first: nothing is written; the client applies what it keeps through the ordinary endpoints. ' +
  'Answered by the built-in engine (deterministic, no network) unless a model is configured (an OpenAI-compatible ' +
  'endpoint). The built-in answer fits the response schema below (what it quotes of a long story is cut at a ' +
  'word boundary); a model answer is validated against the same schema, and on any failure (timeout, invalid ' +
  "answer, model unavailable, or the caller's hourly budget of model calls spent) the built-in answer comes " +
  'back with `provider: "builtin"` and a `note`.';

const STORY = ' Works on `story_id`, or on the current story (the one open for votes) by default.';

const doc = (kind: SuggestionKind, summary: string, description: string, story: boolean) =>
  ({
    summary,
    description: `${description}${story ? STORY : ''}\n\n${COMMON}`,
    params: codeParams,
    body: suggestionBody,
    responses: {
      200: { description: 'The suggestions', payload: suggestionPayload(kind) },
      403: { description: 'Not the owner of the session (`forbidden`)' },
      404: {
        description: story
          ? 'Unknown session (`session_not_found`), story not in this session (`story_not_found`), or no current story and no `story_id` (`no_current_story`)'
          : 'Unknown session (`session_not_found`)',
      },
      422: {
        description:
          'Invalid body: unknown fields, `story_id` not a UUID, `count` outside 1..10, oversized text',
      },
      503: {
        description:
          'The sessions or stories unit did not answer (`sessions_unavailable`, `stories_unavailable`)',
      },
    },
  }) satisfies RouteDoc;

/** The description of each public path, keyed like the gateway's route table ("METHOD /path"). */
export const aiApi = {
  'POST /sessions/{code}/ai/summary': doc(
    'summary',
    'Session summary',
    'Where the session stands (stories, reveals, points, agreement), highlights, risks (wide spreads, outlying votes, upcoming stories that score low on clarity) and next steps.',
    false,
  ),
  'POST /sessions/{code}/ai/analyze-current-story': doc(
    'analyze-current-story',
    'Analyse a story (clarity, INVEST)',
    'A clarity score from 0 to 100: it starts at 100 and loses points for each problem found (no role, goal or value in the "As a … I want … so that …" form, vague words such as "etc", "some", "fast", "user-friendly", acceptance criteria missing or not checkable, several features joined by conjunctions, a text too short or too long); the issues (`kind`, `message`), the questions a team would ask, and the INVEST flags.',
    true,
  ),
  'POST /sessions/{code}/ai/draft-stories': doc(
    'draft-stories',
    'Draft stories from a brief',
    'Reads the actors and goals of a brief (`text`, else `prompt`; 422 without either) and drafts exactly `count` stories (default 3, at most 10), each title once, in user-story form with Given/When/Then acceptance criteria; when the brief states fewer goals, the follow-ups its goals usually need (seeing, changing and being notified of what a goal acts on, its failure path, removing, finding, on a phone, exporting, the history, without a mouse or a screen) fill up, marked as such. A brief with no clause naming who does what (a title, "Build a shop") is read as one goal of a user.',
    false,
  ),
  'POST /sessions/{code}/ai/improve-current-story': doc(
    'improve-current-story',
    'Improve a story',
    'A title naming the outcome and a description in user-story form keeping the details, filler ("etc") removed and the vague words left as open questions, with the rationale of each change. A value the story does not state is proposed in brackets, to be confirmed.',
    true,
  ),
  'POST /sessions/{code}/ai/generate-acceptance-criteria': doc(
    'generate-acceptance-criteria',
    'Acceptance criteria (Given/When/Then)',
    "Criteria in Given/When/Then form from the story's role, actions and conditions, its own criteria rewritten in that form, and always at least one failure path (last); at most `count` (default 6, at least 2).",
    true,
  ),
  'POST /sessions/{code}/ai/split-current-story': doc(
    'split-current-story',
    'Split a story',
    'Smaller stories (2 to 12, each title once), each valuable on its own, by the first pattern that gives two at least: features joined by conjunctions, an umbrella operation ("manage …": create, view, edit, delete), workflow steps, business-rule variations, data variations, then happy and unhappy paths. The rationale names the pattern, and the parts beyond the first 12, left to split the same way.',
    true,
  ),
  'POST /sessions/{code}/ai/estimate-assistant': doc(
    'estimate-assistant',
    'Suggested estimate from similar stories',
    "The owner's revealed stories (every session of theirs) most similar to this one by TF-IDF cosine over title, description and acceptance criteria (at most 5, similarity 0..1, at least 0.15); their final estimates weighted by similarity give a card of this session's deck; the confidence (0..1) grows with the similarity and the number of matches and falls with their spread. Without similar stories, a rough guess from the story's scope with a confidence of 0.1.",
    true,
  ),
  'POST /sessions/{code}/ai/estimation-report': doc(
    'estimation-report',
    'Estimation report of the session',
    'Totals (stories, revealed, estimated, votes, points on a numeric deck), agreement (share of counted votes, not "?" or breaks, that chose the final estimate: per story and on average; unanimous stories; spreads of 3 cards or more), outlying votes (2 cards or more from the final estimate) and recommendations.',
    false,
  ),
} satisfies UnitDocs;
