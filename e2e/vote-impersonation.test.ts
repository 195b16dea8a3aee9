/**
 * Voting in another participant's place, through the gateway: participant ids are small numbers the
 * room lists to everyone, so once a participant has voted with its participant token, its id alone
 * votes no more; a participant that never used its token still votes with its id alone.
 */
import { startPlatform, type Platform } from './support/platform.ts';

describe('a vote in the place of another participant', () => {
  let p: Platform;
  let owner: string;
  beforeAll(async () => {
    p = await startPlatform();
    owner = await p.signUp('Ann');
  });
  afterAll(() => p.stop());

  it('is refused (403 participant_token_required) once the participant has voted with its token', async () => {
    const { code } = (await p.client.post('/sessions', { token: owner, body: { name: 'Sprint' } })).body
      .session;
    const story = await p.client.post(`/sessions/${code}/stories`, {
      token: owner,
      body: { title: 'Login' },
    });
    expect(story.status).toBe(201);
    const join = async (name: string) =>
      (await p.client.post(`/sessions/${code}/join`, { body: { name } })).body.participant as {
        id: number;
        token: string;
      };
    const [bob, cleo] = [await join('Bob'), await join('Cleo')];
    const vote = (participantId: number, value: string, token?: string) =>
      p.client.post(`/sessions/${code}/vote`, {
        body: { participant_id: participantId, vote: value },
        headers: token ? { 'x-participant-token': token } : {},
      });

    expect((await vote(bob.id, '5', bob.token)).status).toBe(200);
    const impostor = await vote(bob.id, '1');
    expect([impostor.status, impostor.body.error.code]).toEqual([403, 'participant_token_required']);
    // A client that sends only participant_id still votes for a participant that never used its token.
    expect((await vote(cleo.id, '3')).status).toBe(200);

    const revealed = await p.client.post(`/stories/${story.body.story.id}/reveal`, { token: owner });
    const votes = revealed.body.story.votes as Array<{ participant: { id: number }; value: string }>;
    expect(votes.map((v) => [v.participant.id, v.value])).toEqual([
      [bob.id, '5'],
      [cleo.id, '3'],
    ]);
  });
});
