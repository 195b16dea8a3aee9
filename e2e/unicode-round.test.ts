/**
 * A round in text as people type it, through the gateway: a deck of emoji and accented cards, votes
 * typed in either Unicode spelling, titles and names of emoji counted as the OpenAPI document counts
 * them (characters), and what comes out at the reveal and in the export.
 */
import { bearer, startPlatform, type Platform } from './support/platform.ts';

describe('a round in any script, through the gateway', () => {
  let p: Platform;
  let owner: string;
  beforeAll(async () => {
    p = await startPlatform();
    owner = await p.signUp('Zoë');
  });
  afterAll(() => p.stop());

  /** é as one character, and as e with a combining acute accent: the same on screen. */
  const COMPOSED = 'caf\u00e9';
  const DECOMPOSED = 'cafe\u0301';

  it('takes a vote in either spelling as the card, and the reveal and the export show the card', async () => {
    const created = await p.api.POST('/sessions', {
      ...bearer(owner),
      body: { name: '🚀'.repeat(200), voting_system: 'custom', custom_deck_values: ['🐢', '🐇', DECOMPOSED] },
    });
    expect(created.response.status).toBe(201);
    const { code } = created.data!.session;
    expect(created.data!.session.custom_deck_values).toEqual(['🐢', '🐇', COMPOSED]);

    const title = '🧪'.repeat(200);
    const inRoom = { params: { path: { code } } };
    const story = await p.api.POST('/sessions/{code}/stories', {
      ...inRoom,
      ...bearer(owner),
      body: { title },
    });
    expect(story.response.status).toBe(201);
    const ids: number[] = [];
    for (const name of ['Ann', 'Bob', 'Cleo']) {
      const joined = await p.api.POST('/sessions/{code}/join', { ...inRoom, body: { name } });
      ids.push(joined.data!.participant.id);
    }
    for (const [i, vote] of [COMPOSED, DECOMPOSED, '🐢'].entries()) {
      const cast = await p.api.POST('/sessions/{code}/vote', {
        ...inRoom,
        body: { participant_id: ids[i]!, vote },
      });
      expect([cast.response.status, cast.data?.vote.value]).toEqual([200, vote === '🐢' ? '🐢' : COMPOSED]);
    }
    const revealed = await p.api.POST('/stories/{story}/reveal', {
      params: { path: { story: story.data!.story.id } },
      ...bearer(owner),
    });
    expect(revealed.response.status).toBe(200);
    // Two votes for the one card café: it is the consensus, spelt as the deck has it.
    expect(revealed.data!.story.final_estimate).toBe(COMPOSED);

    const csv = await p.api.GET('/sessions/{code}/export', { ...inRoom, ...bearer(owner), parseAs: 'text' });
    expect(csv.response.status).toBe(200);
    expect(csv.data).toContain(title);
    expect(csv.data).toContain(COMPOSED);
    expect(csv.data).not.toContain(DECOMPOSED);

    // One emoji past the limit is refused as the documented maxLength says, naming the field.
    const longer = await p.api.POST('/sessions/{code}/stories', {
      ...inRoom,
      ...bearer(owner),
      body: { title: `${title}🧪` },
    });
    expect(longer.response.status).toBe(422);
    expect(longer.error?.errors).toEqual({ title: ['Too big: expected string to have <=200 characters'] });
  });
});
