import { randomUUID } from 'node:crypto';
import type { SessionSnapshot } from '@pp/contracts';
import {
  ConflictError,
  createServiceApp,
  NotFoundError,
  requireService,
  send,
  type RunningServer,
} from '@pp/http';
import type { Logger } from '@pp/logger';
import { startApp } from '@pp/testing';

export const FIBONACCI = ['0', '0.5', '1', '2', '3', '5', '8', '13', '20', '40', '100', '?', 'coffee'];

interface Participant {
  id: number;
  name: string;
  role: 'moderator' | 'participant' | 'observer';
}
interface Round {
  sealed: boolean;
  votes: Map<number, { participant: Participant; value: string; updated_at: string }>;
}

/**
 * A stand-in for the sessions service that speaks exactly its internal contract with stories:
 * `GET /internal/sessions/{codeOrId}`, and seal / reset / stats of a story's round. Votes are cast directly.
 */
export async function startFakeSessions(key: string, logger: Logger) {
  const sessions = new Map<string, SessionSnapshot>();
  const rounds = new Map<string, Round>();
  const calls = { lookup: 0, seal: 0, reset: 0, stats: 0 };
  /** Voting participants per story, for the stats endpoint (unset: one more than have voted). */
  const voters = new Map<string, number>();
  let nextParticipant = 1;
  let down = false;

  const round = (storyId: string) => {
    let r = rounds.get(storyId);
    if (!r) rounds.set(storyId, (r = { sealed: false, votes: new Map() }));
    return r;
  };
  const find = (codeOrId: string) =>
    sessions.get(codeOrId) ?? [...sessions.values()].find((s) => s.code === codeOrId.toUpperCase());

  const app = createServiceApp({
    logger,
    identityKey: key,
    readiness: {},
    routes: (a) => {
      a.use('/internal', (_req, res, next) => (down ? res.status(503).json({ success: false }) : next()));
      a.use('/internal', requireService);
      a.get('/internal/sessions/:codeOrId', (req, res) => {
        calls.lookup++;
        const session = find(String(req.params.codeOrId));
        if (!session) throw new NotFoundError('Session not found', 'session_not_found');
        send(res, 200, { session });
      });
      a.post('/internal/sessions/:sessionId/stories/:storyId/seal', (req, res) => {
        calls.seal++;
        const r = round(String(req.params.storyId));
        r.sealed = true;
        send(res, 200, { votes: [...r.votes.values()], stats: { votes_cast: r.votes.size } });
      });
      a.get('/internal/sessions/:sessionId/stories/:storyId/stats', (req, res) => {
        calls.stats++;
        const storyId = String(req.params.storyId);
        const cast = round(storyId).votes.size;
        const total = voters.get(storyId) ?? cast + 1;
        send(res, 200, {
          stats: { votes_cast: cast, total_participants: total, all_voted: total > 0 && cast >= total },
        });
      });
      a.post('/internal/sessions/:sessionId/stories/:storyId/reset', (req, res) => {
        calls.reset++;
        rounds.set(String(req.params.storyId), { sealed: false, votes: new Map() });
        send(res, 200, { reset: true });
      });
    },
  });
  const server: RunningServer = await startApp(app);

  return {
    url: server.url,
    calls,
    /** A session as the sessions service would describe it (not announced: see publishSession). */
    addSession(overrides: Partial<SessionSnapshot> = {}): SessionSnapshot {
      const code = Array.from(
        { length: 6 },
        () => 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'[Math.floor(Math.random() * 31)],
      ).join('');
      const session: SessionSnapshot = {
        id: randomUUID(),
        code,
        owner_id: randomUUID(),
        name: 'Sprint 42',
        status: 'active',
        voting_system: 'fibonacci',
        deck: FIBONACCI,
        record_vote_names: true,
        auto_reveal: false,
        voteby_enabled: false,
        vote_by_at: null,
        updated_at: new Date().toISOString(),
        ...overrides,
      };
      sessions.set(session.id, session);
      return session;
    },
    participant(name: string, role: Participant['role'] = 'participant'): Participant {
      return { id: nextParticipant++, name, role };
    },
    /** A vote on a story's round: refused once the round is sealed, like the real service. */
    vote(storyId: string, participant: Participant, value: string) {
      const r = round(storyId);
      if (r.sealed) throw new ConflictError('Story already revealed', 'story_already_revealed');
      r.votes.set(participant.id, { participant, value, updated_at: new Date().toISOString() });
    },
    votesOf: (storyId: string) => [...round(storyId).votes.values()],
    setVoters: (storyId: string, n: number) => voters.set(storyId, n),
    isSealed: (storyId: string) => round(storyId).sealed,
    setDown(value: boolean) {
      down = value;
    },
    close: () => server.close(),
  };
}

export type FakeSessions = Awaited<ReturnType<typeof startFakeSessions>>;
