/**
 * The public API calls the traffic makes, each written to the ledger with what its 2xx promised.
 */
import { send, type Answer } from './client.ts';
import type { Ledger, Operation, RevealedVote } from './ledger.ts';

export interface Participant {
  id: number;
  token: string;
}

/** One session as the traffic drives it. */
export interface Room {
  code: string;
  deck: string[];
  participants: Participant[];
}

export interface Api {
  join(room: Room, name: string): Promise<Participant | undefined>;
  vote(room: Room, who: Participant, value: string): Promise<Operation>;
  addStory(room: Room, title: string): Promise<Operation>;
  activate(room: Room, storyId: string): Promise<Operation>;
  reveal(room: Room, storyId: string): Promise<Operation>;
  /** The room's stories as the public view has them (undefined when the read failed). */
  stories(room: Room): Promise<Array<{ id: string; status: string }> | undefined>;
}

const votesOf = (story: { votes?: Array<{ participant: { id: number }; value: string }> }): RevealedVote[] =>
  (story.votes ?? []).map((v) => ({ participantId: v.participant.id, value: v.value }));

export function createApi(base: string, ownerToken: string, ledger: Ledger, timeoutMs: number): Api {
  const call = (
    method: string,
    path: string,
    body?: unknown,
    extra: { token?: string; headers?: Record<string, string> } = {},
  ) => send(method, `${base}${path}`, { body, timeoutMs, ...extra });
  const asOwner = (method: string, path: string, body?: unknown) =>
    call(method, path, body, { token: ownerToken });
  const owned = { validToken: true };
  return {
    async join(room, name) {
      const answer: Answer = await call('POST', `/sessions/${room.code}/join`, { name });
      const p = answer.body?.participant as { id: number; token: string } | undefined;
      ledger.record({ kind: 'join', room: room.code, validToken: false }, answer, { participantId: p?.id });
      if (answer.outcome !== 'ok' || !p) return undefined;
      const who = { id: p.id, token: p.token };
      room.participants.push(who);
      return who;
    },
    async vote(room, who, value) {
      const answer = await call(
        'POST',
        `/sessions/${room.code}/vote`,
        { participant_id: who.id, vote: value },
        { headers: { 'x-participant-token': who.token } },
      );
      const intent = {
        kind: 'vote' as const,
        room: room.code,
        validToken: false,
        participantId: who.id,
        value,
      };
      return ledger.record(intent, answer, { storyId: answer.body?.vote?.story_id });
    },
    async addStory(room, title) {
      const answer = await asOwner('POST', `/sessions/${room.code}/stories`, { title });
      return ledger.record({ kind: 'add-story', room: room.code, ...owned }, answer, {
        storyId: answer.body?.story?.id,
      });
    },
    async activate(room, storyId) {
      const answer = await asOwner('POST', `/stories/${storyId}/activate`);
      return ledger.record({ kind: 'activate', room: room.code, storyId, ...owned }, answer);
    },
    async reveal(room, storyId) {
      const answer = await asOwner('POST', `/stories/${storyId}/reveal`);
      const story = answer.body?.story ?? {};
      return ledger.record({ kind: 'reveal', room: room.code, storyId, ...owned }, answer, {
        finalEstimate: story.final_estimate ?? null,
        votes: votesOf(story),
      });
    },
    async stories(room) {
      const answer = await call('GET', `/sessions/${room.code}/stories`, undefined, { token: ownerToken });
      ledger.record({ kind: 'read', room: room.code, ...owned }, answer);
      return answer.outcome === 'ok'
        ? (answer.body.stories as Array<{ id: string; status: string }>)
        : undefined;
    },
  };
}
