import { call, request, ApiError } from './client.ts';
import { seatTokenOf } from './seat.ts';
import type {
  Analytics,
  Participant,
  RoomRead,
  RoomStory,
  Session,
  StorySummary,
  User,
  VoteStats,
} from './types.ts';

/** The public API calls the room makes, one function each (paths and bodies as /openapi.json has them). */

const code = (c: string) => encodeURIComponent(c.toUpperCase());

export interface AuthAnswer {
  user: User;
  token: string;
}
export const register = (body: { email: string; password: string; name: string }) =>
  call<AuthAnswer>('/auth/register', { body });
export const login = (body: { email: string; password: string }) => call<AuthAnswer>('/auth/login', { body });
export const me = (token: string) => call<{ user: User }>('/auth/me', { token });

export interface NewSession {
  name: string;
  voting_system: Session['voting_system'];
  custom_deck_name?: string | null;
  custom_deck_values?: string[] | null;
  auto_reveal: boolean;
  voteby_enabled: boolean;
  vote_by_at: string | null;
  record_vote_names: boolean;
}
export const createSession = (token: string, body: NewSession) =>
  call<{ session: Session }>('/sessions', { token, body });
export const listSessions = (token: string) =>
  call<{ sessions: Session[] }>('/sessions?per_page=20&sort=updated_at', { token });
export const lookUpSession = (c: string, token: string | null) =>
  call<{ session: Session }>(`/sessions/${code(c)}`, { token, participantToken: seatTokenOf(c) });
export const updateSession = (c: string, token: string, body: Partial<NewSession>) =>
  call<{ session: Session }>(`/sessions/${code(c)}`, { token, body, method: 'PATCH' });

export const joinSession = (c: string, token: string | null, body: { name?: string; role?: 'observer' }) =>
  call<{ participant: Participant & { token: string }; session: Session }>(`/sessions/${code(c)}/join`, {
    token,
    body,
  });
/** The whole room in one read, with where its live stream resumes. */
export const readRoom = (c: string, token: string | null) =>
  call<RoomRead>(`/sessions/${code(c)}/room`, { token, participantToken: seatTokenOf(c) });
export const castVote = (c: string, seat: { id: number; token: string }, vote: string) =>
  call<{ vote: { story_id: string; value: string }; stats: VoteStats }>(`/sessions/${code(c)}/vote`, {
    body: { participant_id: seat.id, vote },
    participantToken: seat.token,
  });

export const listStories = (c: string) =>
  call<{ stories: RoomStory[] }>(`/sessions/${code(c)}/stories`, { participantToken: seatTokenOf(c) });
export const addStory = (
  c: string,
  token: string,
  body: { title: string; description?: string; acceptance_criteria?: string },
) => call<{ story: StorySummary }>(`/sessions/${code(c)}/stories`, { token, body });

const story = (id: string, action = '') => `/stories/${encodeURIComponent(id)}${action}`;
export const moveStory = (id: string, token: string, position: number) =>
  call(story(id), { token, method: 'PATCH', body: { position } });
export const deleteStory = (id: string, token: string) => call(story(id), { token, method: 'DELETE' });
export const revealStory = (id: string, token: string) =>
  call(story(id, '/reveal'), { token, method: 'POST' });
export const resetStory = (id: string, token: string) => call(story(id, '/reset'), { token, method: 'POST' });
export const activateStory = (id: string, token: string) =>
  call(story(id, '/activate'), { token, method: 'POST' });

export const analytics = (c: string, token: string) =>
  call<{ analytics: Analytics }>(`/sessions/${code(c)}/analytics`, { token });

/** The export as a file: CSV as the API writes it, or the JSON answer. */
export async function exportStories(c: string, token: string, format: 'csv' | 'json'): Promise<Blob> {
  const accept = format === 'csv' ? 'text/csv' : 'application/json';
  const res = await request(`/sessions/${code(c)}/export?format=${format}`, { token }, accept);
  if (!res.ok) {
    const body = await res.json().catch(() => undefined);
    throw new ApiError(
      res.status,
      body?.error?.code ?? 'http_error',
      body?.message ?? `Export failed (${res.status})`,
    );
  }
  return res.blob();
}
