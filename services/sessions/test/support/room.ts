import { until } from '@pp/testing';
import { randomUUID } from 'node:crypto';
import { asUser, type SessionsHarness } from './sessions-harness.ts';

/** Builds rooms for the tests: a session of an owner, guests joined, a story opened through the real event. */
export function rooms(h: SessionsHarness) {
  const createSession = async (owner: string, body: Record<string, unknown> = {}) => {
    const res = await h.client.post('/sessions', {
      body: { name: 'Sprint 42', ...body },
      headers: asUser(owner),
    });
    if (res.status !== 201) throw new Error(`create session answered ${res.status}: ${res.text}`);
    return res.body.session as { id: string; code: string; owner_id: string };
  };

  const join = async (code: string, name: string, extra: Record<string, unknown> = {}) => {
    const res = await h.client.post(`/sessions/${code}/join`, { body: { name, ...extra } });
    if (res.status !== 200) throw new Error(`join answered ${res.status}: ${res.text}`);
    return res.body.participant as { id: number; name: string; role: string; token: string };
  };

  /** A story.created event for a story that is `voting`; resolves once the lookup shows it current. */
  const openStory = async (session: { id: string; code: string }, title = 'Login page', position = 1) => {
    const story = { id: randomUUID(), title, status: 'voting' as const, position };
    await h.publish('story.created', { session_id: session.id, session_code: session.code, story });
    await until(async () => {
      const res = await h.client.get(`/sessions/${session.code}`);
      return res.body.session?.current_story?.id === story.id;
    });
    return story;
  };

  const vote = (code: string, participantId: number, value: string, headers: Record<string, string> = {}) =>
    h.client.post(`/sessions/${code}/vote`, {
      body: { participant_id: participantId, vote: value },
      headers,
    });

  return { createSession, join, openStory, vote };
}
