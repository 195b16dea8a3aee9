import { createHash, randomBytes } from 'node:crypto';
import { participantTokenKey, verifyParticipantToken } from '@pp/contracts';
import { rooms } from './support/room.ts';
import { INTERNAL_KEY, startSessions, type SessionsHarness } from './support/sessions-harness.ts';

let h: SessionsHarness;
let r: ReturnType<typeof rooms>;
beforeAll(async () => {
  h = await startSessions();
  r = rooms(h);
});
afterAll(() => h.stop());

describe('participant tokens', () => {
  it('are signed for their room: the gateway can tell them from a made-up string without the database', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    const key = participantTokenKey(INTERNAL_KEY);
    expect(verifyParticipantToken(key, bob.token, session.code)).toEqual(expect.any(String));
    const other = await r.createSession('ann');
    expect(verifyParticipantToken(key, bob.token, other.code)).toBeUndefined();
  });

  it('minted before they carried a MAC keep voting here', async () => {
    const session = await r.createSession('ann');
    const bob = await r.join(session.code, 'Bob');
    const old = `ppt_${randomBytes(24).toString('base64url')}`;
    await h.runtime.db
      .fork()
      .getConnection()
      .execute('update participants set token_hash = ? where id = ?', [
        createHash('sha256').update(old).digest('hex'),
        bob.id,
      ]);
    await r.openStory(session);
    expect((await r.vote(session.code, bob.id, '5', { 'x-participant-token': old })).status).toBe(200);
    const forged = await r.vote(session.code, bob.id, '5', { 'x-participant-token': bob.token });
    expect(forged.body.error.code).toBe('invalid_participant_token');
  });
});
