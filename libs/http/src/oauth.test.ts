import { createHash } from 'node:crypto';
import { oauthStateSigner, pkcePair } from './oauth.ts';

describe('OAuth helpers', () => {
  it('makes a PKCE pair: a 43-character verifier and its S256 challenge', () => {
    const { verifier, challenge } = pkcePair();
    expect(verifier).toMatch(/^[\w-]{43}$/);
    expect(challenge).toBe(createHash('sha256').update(verifier).digest('base64url'));
    expect(pkcePair().verifier).not.toBe(verifier);
  });

  it('signs a state for what it is bound to, and refuses it for anything else or altered', () => {
    const states = oauthStateSigner('a secret of the unit', 'pp-test');
    const { id, state } = states.newState('user-1', 'github');
    expect(states.idOf(state)).toBe(id);
    expect(states.verify(state, 'user-1', 'github')).toBe(id);
    expect(states.verify(state, 'user-2', 'github')).toBeUndefined();
    expect(states.verify(state, 'user-1', 'linear')).toBeUndefined();
    expect(states.verify(`${id}x${state.slice(id.length)}`, 'user-1', 'github')).toBeUndefined();
    expect(oauthStateSigner('another secret', 'pp-test').verify(state, 'user-1', 'github')).toBeUndefined();
    expect(
      oauthStateSigner('a secret of the unit', 'pp-other').verify(state, 'user-1', 'github'),
    ).toBeUndefined();
    for (const bad of ['', 'no-dot', `${id}.`, `${id}.${'a'.repeat(43)}.x`])
      expect(states.verify(bad)).toBeUndefined();
  });

  it('signs a given id (a stored start, a UUID) too', () => {
    const states = oauthStateSigner('key', 'pp-test');
    const id = '0b6c5a1e-7d53-4a4e-9a43-3d4f8c1c2b9a';
    const state = states.sign(id, 'google');
    expect(states.verify(state, 'google')).toBe(id);
    expect(states.verify(state, 'github')).toBeUndefined();
  });
});
