import { pathOf, type Schemas } from '@pp/api-client';
import { answerOf, api, as, fileOf } from './client.ts';
import { seatTokenOf } from './seat.ts';

/** The public API calls the room makes, one function each, through the API's typed client. */

const inRoom = (c: string) => ({ params: { path: { code: c.toUpperCase() } } });
const ofStory = (id: string) => ({ params: { path: { story: id } } });

export const register = (body: Schemas['RegisterRequest']) => answerOf(api.POST('/auth/register', { body }));
export const login = (body: Schemas['LoginRequest']) => answerOf(api.POST('/auth/login', { body }));
export const me = (token: string) => answerOf(api.GET('/auth/me', as({ token })), { token });

export type NewSession = Schemas['CreateSessionRequest'];
export const createSession = (token: string, body: NewSession) =>
  answerOf(api.POST('/sessions', { body, ...as({ token }) }), { token });
export const listSessions = (token: string) =>
  answerOf(
    api.GET('/sessions', { params: { query: { per_page: 20, sort: 'updated_at' } }, ...as({ token }) }),
    { token },
  );
const seated = (c: string, token: string | null) => ({ token, participantToken: seatTokenOf(c) });
export const lookUpSession = (c: string, token: string | null) =>
  answerOf(api.GET('/sessions/{code}', { ...inRoom(c), ...as(seated(c, token)) }), { token });
export const updateSession = (c: string, token: string, body: Schemas['UpdateSessionRequest']) =>
  answerOf(api.PATCH('/sessions/{code}', { ...inRoom(c), body, ...as({ token }) }), { token });

export const joinSession = (c: string, token: string | null, body: Schemas['JoinRequest']) =>
  answerOf(api.POST('/sessions/{code}/join', { ...inRoom(c), body, ...as({ token }) }), { token });
/** The room's live stream (read by room-stream.ts, not as JSON). */
export const roomStreamPath = (c: string) => pathOf('/sessions/{code}/events', { code: c });
/** The whole room in one read, with where its live stream resumes. */
export const readRoom = (c: string, token: string | null) =>
  answerOf(api.GET('/sessions/{code}/room', { ...inRoom(c), ...as(seated(c, token)) }), { token });
export const castVote = (c: string, seat: { id: number; token: string }, vote: string) =>
  answerOf(
    api.POST('/sessions/{code}/vote', {
      ...inRoom(c),
      body: { participant_id: seat.id, vote },
      ...as({ participantToken: seat.token }),
    }),
  );

export const listStories = (c: string) =>
  answerOf(api.GET('/sessions/{code}/stories', { ...inRoom(c), ...as(seated(c, null)) }));
export const addStory = (c: string, token: string, body: Schemas['CreateStoryRequest']) =>
  answerOf(api.POST('/sessions/{code}/stories', { ...inRoom(c), body, ...as({ token }) }), { token });

export const moveStory = (id: string, token: string, position: number) =>
  answerOf(api.PATCH('/stories/{story}', { ...ofStory(id), body: { position }, ...as({ token }) }), {
    token,
  });
export const deleteStory = (id: string, token: string) =>
  answerOf(api.DELETE('/stories/{story}', { ...ofStory(id), ...as({ token }) }), { token });
/**
 * Who runs the round: the owner by its access token, or the room's moderator by its seat's
 * participant token (the role the owner may hand over).
 */
export type RoundRunner = { token: string } | { participantToken: string };
export const revealStory = (id: string, by: RoundRunner) =>
  answerOf(api.POST('/stories/{story}/reveal', { ...ofStory(id), ...as(by) }), by);
export const resetStory = (id: string, by: RoundRunner) =>
  answerOf(api.POST('/stories/{story}/reset', { ...ofStory(id), ...as(by) }), by);
export const activateStory = (id: string, by: RoundRunner) =>
  answerOf(api.POST('/stories/{story}/activate', { ...ofStory(id), ...as(by) }), by);

export const analytics = (c: string, token: string) =>
  answerOf(api.GET('/sessions/{code}/analytics', { ...inRoom(c), ...as({ token }) }), { token });

/** The export as a file: CSV as the API writes it, or the JSON answer. */
export function exportStories(c: string, token: string, format: 'csv' | 'json'): Promise<Blob> {
  const { headers } = as({ token });
  const accept = format === 'csv' ? 'text/csv' : 'application/json';
  const call = api.GET('/sessions/{code}/export', {
    params: { path: { code: c.toUpperCase() }, query: { format } },
    headers: { ...headers, accept },
    parseAs: 'blob',
  });
  return fileOf(call, { token });
}

/** The open round's countdown (the owner or the moderator): started (again) or stopped. */
export const startCountdown = (c: string, by: RoundRunner, body: Schemas['CountdownRequest']) =>
  answerOf(api.POST('/sessions/{code}/countdown', { ...inRoom(c), body, ...as(by) }), by);
export const stopCountdown = (c: string, by: RoundRunner) =>
  answerOf(api.DELETE('/sessions/{code}/countdown', { ...inRoom(c), ...as(by) }), by);

/** A round at once, on a dated story made for it (owner). */
export const quickVote = (c: string, token: string) =>
  answerOf(api.POST('/sessions/{code}/quick-vote', { ...inRoom(c), body: {}, ...as({ token }) }), { token });

/** A story's texts edited in place (owner). */
export const editStory = (
  id: string,
  token: string,
  body: Pick<Schemas['UpdateStoryRequest'], 'title' | 'description' | 'acceptance_criteria'>,
) => answerOf(api.PATCH('/stories/{story}', { ...ofStory(id), body, ...as({ token }) }), { token });

const ofParticipant = (c: string, id: number) => ({ params: { path: { code: c.toUpperCase(), id } } });
/** The owner removes someone from the room. */
export const removeParticipant = (c: string, token: string, id: number) =>
  answerOf(api.DELETE('/sessions/{code}/participants/{id}', { ...ofParticipant(c, id), ...as({ token }) }), {
    token,
  });
/** The owner changes someone's role (moderator hands the role over). */
export const changeRole = (
  c: string,
  token: string,
  id: number,
  role: Schemas['ParticipantRoleRequest']['role'],
) =>
  answerOf(
    api.PATCH('/sessions/{code}/participants/{id}', {
      ...ofParticipant(c, id),
      body: { role },
      ...as({ token }),
    }),
    { token },
  );

/** The issues a CSV holds, as the integrations unit reads it (nothing is stored). */
export const previewCsv = (token: string, csv: string) =>
  answerOf(api.POST('/integrations/import-preview', { body: { provider: 'csv', csv }, ...as({ token }) }), {
    token,
  });
/** The CSV's rows added as stories at the end of the queue, in one request (owner). */
export const importCsv = (c: string, token: string, csv: string) =>
  answerOf(
    api.POST('/sessions/{code}/integrations/import-confirm', {
      ...inRoom(c),
      body: { provider: 'csv', csv },
      ...as({ token }),
    }),
    { token },
  );
