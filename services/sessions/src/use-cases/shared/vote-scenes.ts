import { BoundedMap } from '@pp/collections';
import type { VoteSceneRow } from '../../db/vote-scene.repository.ts';

/**
 * The scenes votes were last checked against, per session code and voter, so that a participant's
 * next vote needs no read: the write takes it only while the round is open and the session and the
 * voter rows are the versions the scene was read at, and a refusal is always answered from a fresh
 * read. Bounded: the oldest entries go first.
 */
export interface VoteScenes {
  get(code: string, participantId: number): VoteSceneRow | undefined;
  set(code: string, participantId: number, scene: VoteSceneRow): void;
}

export function voteScenes(max = 10_000): VoteScenes {
  const scenes = new BoundedMap<string, VoteSceneRow>(max);
  const key = (code: string, participantId: number) => `${code}/${participantId}`;
  return {
    get: (code, participantId) => scenes.get(key(code, participantId)),
    set: (code, participantId, scene) => void scenes.set(key(code, participantId), scene),
  };
}
