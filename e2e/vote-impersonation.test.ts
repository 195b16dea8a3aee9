/**
 * Voting in another participant's place, through the gateway: participant ids are small numbers the
 * room lists to everyone, so once a participant has voted with its participant token, its id alone
 * votes no more; a participant that never used its token still votes with its id alone.
 */
import { bearer, startPlatform, type Platform } from './support/platform.ts';

describe('a vote in the place of another participant', () => {
  let p: Platform;
  let owner: string;
  beforeAll(async () => {
    p = await startPlatform();
    owner = await p.signUp('Ann');
  });
  afterAll(() => p.stop());

  it('is refused (403 participant_token_required) once the participant has voted with its token', async () => {
    const created = await p.api.POST('/sessions', { ...bearer(owner), body: { name: 'Sprint' } });
    const inRoom = { params: { path: { code: created.data!.session.code } } };
    const story = await p.api.POST('/sessions/{code}/stories', {
      ...inRoom,
      ...bearer(owner),
      body: { title: 'Login' },
    });
    expect(story.response.status).toBe(201);
    const join = async (name: string) =>
      (await p.api.POST('/sessions/{code}/join', { ...inRoom, body: { name } })).data!.participant;
    const [bob, cleo] = [await join('Bob'), await join('Cleo')];
    const vote = (participantId: number, value: string, token?: string) =>
      p.api.POST('/sessions/{code}/vote', {
        ...inRoom,
        body: { participant_id: participantId, vote: value },
        headers: token ? { 'x-participant-token': token } : {},
      });

    expect((await vote(bob.id, '5', bob.token)).response.status).toBe(200);
    const impostor = await vote(bob.id, '1');
    expect([impostor.response.status, impostor.error?.error.code]).toEqual([
      403,
      'participant_token_required',
    ]);
    // A client that sends only participant_id still votes for a participant that never used its token.
    expect((await vote(cleo.id, '3')).response.status).toBe(200);

    const revealed = await p.api.POST('/stories/{story}/reveal', {
      params: { path: { story: story.data!.story.id } },
      ...bearer(owner),
    });
    const votes = revealed.data!.story.votes ?? [];
    expect(votes.map((v) => [v.participant.id, v.value])).toEqual([
      [bob.id, '5'],
      [cleo.id, '3'],
    ]);
  });
});
