import { randomUUID } from 'node:crypto';
import type { RoundCommand } from '@pp/contracts';
import { asService, asUser, type SessionsHarness } from './sessions-harness.ts';

/** Round versions only go up: one counter for every session of the file is enough. */
let version = 0;

/** Builds rooms for the tests: a session of an owner, guests joined, rounds set as the stories unit sets them. */
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

  /** The round command of the stories unit, with the next version (unless one is given). */
  const round = (
    sessionId: string,
    command: Partial<RoundCommand> = {},
    headers: Record<string, string> = asService(),
  ) =>
    h.client.put(`/internal/sessions/${sessionId}/round`, {
      body: { version: ++version, kind: 'change', current: null, ...command },
      headers,
    });

  /**
   * A new story made current, as the stories unit does it: the round command, then story.created for
   * the live room.
   */
  const openStory = async (session: { id: string; code: string }, title = 'Login page', position = 1) => {
    const story = { id: randomUUID(), title, status: 'voting' as const, position };
    const res = await round(session.id, { current: { id: story.id, title, position } });
    if (res.status !== 200) throw new Error(`round answered ${res.status}: ${res.text}`);
    await h.publish('story.created', { session_id: session.id, session_code: session.code, story });
    return story;
  };

  /** The owner reveals: the round is sealed (nothing current after it); resolves with the answer. */
  const seal = (
    sessionId: string,
    storyId: string,
    when: 'always' | 'all_voted' | 'deadline_passed' = 'always',
  ) => round(sessionId, { seal: { story_id: storyId, when } });

  /** The owner resets: the votes go and the round opens again as the current one. */
  const reset = (sessionId: string, story: { id: string; title: string; position: number }) =>
    round(sessionId, {
      reset: [story.id],
      current: { id: story.id, title: story.title, position: story.position },
    });

  const vote = (code: string, participantId: number, value: string, headers: Record<string, string> = {}) =>
    h.client.post(`/sessions/${code}/vote`, {
      body: { participant_id: participantId, vote: value },
      headers,
    });

  const currentStory = async (code: string) =>
    (await h.client.get(`/sessions/${code}`)).body.session.current_story;

  /** A session of the owner's where Bob and Cleo joined and voted these cards on its open story. */
  const votedRound = async (owner: string, [bobVotes, cleoVotes]: [string, string]) => {
    const session = await createSession(owner);
    const bob = await join(session.code, 'Bob');
    const cleo = await join(session.code, 'Cleo');
    const story = await openStory(session);
    for (const [voter, value] of [
      [bob, bobVotes],
      [cleo, cleoVotes],
    ] as const) {
      const res = await vote(session.code, voter.id, value);
      if (res.status !== 200) throw new Error(`vote answered ${res.status}: ${res.text}`);
    }
    return { session, bob, cleo, story };
  };

  return { createSession, join, round, openStory, seal, reset, vote, currentStory, votedRound };
}
