import { mintParticipantToken, participantTokenKey, verifyParticipantToken } from './index.ts';

describe('participant tokens', () => {
  const key = participantTokenKey('internal-signing-key-for-tests-0123456789');

  it('are verified for the room they were minted for, in any case of its code, and named by their MAC', () => {
    const token = mintParticipantToken(key, 'AB3DEF');
    expect(token).toMatch(/^ppt_[A-Za-z0-9_-]{32}\.[A-Za-z0-9_-]{22}$/);
    const name = verifyParticipantToken(key, token, 'ab3def');
    expect(name).toBe(token.split('.')[1]);
    expect(token).not.toContain(`${name}.`);
    expect(mintParticipantToken(key, 'AB3DEF')).not.toBe(token);
  });

  it('refuse another room, another key, a changed secret or MAC, a token without MAC and any other string', () => {
    const token = mintParticipantToken(key, 'AB3DEF');
    const [secret, mac] = token.slice(4).split('.') as [string, string];
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    expect(verifyParticipantToken(key, token, 'AB3DEG')).toBeUndefined();
    expect(
      verifyParticipantToken(participantTokenKey('another-internal-key-0123456789abcdef'), token, 'AB3DEF'),
    ).toBeUndefined();
    expect(verifyParticipantToken(key, `ppt_${flip(secret)}.${mac}`, 'AB3DEF')).toBeUndefined();
    expect(verifyParticipantToken(key, `ppt_${secret}.${flip(mac)}`, 'AB3DEF')).toBeUndefined();
    for (const odd of [`ppt_${secret}`, `ppt_${secret}.`, `${token}x`, '', 'ppt_forged', `x${token}`])
      expect(verifyParticipantToken(key, odd, 'AB3DEF')).toBeUndefined();
  });
});
