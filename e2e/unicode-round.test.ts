/**
 * A round in text as people type it, through the gateway: a deck of emoji and accented cards, votes
 * typed in either Unicode spelling, titles and names of emoji counted as the OpenAPI document counts
 * them (characters), and what comes out at the reveal and in the export.
 */
import { startPlatform, type Platform } from './support/platform.ts';

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
    const created = await p.client.post('/sessions', {
      token: owner,
      body: { name: '🚀'.repeat(200), voting_system: 'custom', custom_deck_values: ['🐢', '🐇', DECOMPOSED] },
    });
    expect(created.status).toBe(201);
    const { code } = created.body.session;
    expect(created.body.session.custom_deck_values).toEqual(['🐢', '🐇', COMPOSED]);

    const title = '🧪'.repeat(200);
    const story = await p.client.post(`/sessions/${code}/stories`, { token: owner, body: { title } });
    expect(story.status).toBe(201);
    const ids: number[] = [];
    for (const name of ['Ann', 'Bob', 'Cleo']) {
      const joined = await p.client.post(`/sessions/${code}/join`, { body: { name } });
      ids.push(joined.body.participant.id);
    }
    for (const [i, vote] of [COMPOSED, DECOMPOSED, '🐢'].entries()) {
      const cast = await p.client.post(`/sessions/${code}/vote`, { body: { participant_id: ids[i], vote } });
      expect([cast.status, cast.body.vote?.value]).toEqual([200, vote === '🐢' ? '🐢' : COMPOSED]);
    }
    const revealed = await p.client.post(`/stories/${story.body.story.id}/reveal`, { token: owner });
    expect(revealed.status).toBe(200);
    // Two votes for the one card café: it is the consensus, spelt as the deck has it.
    expect(revealed.body.story.final_estimate).toBe(COMPOSED);

    const csv = await p.client.get(`/sessions/${code}/export`, { token: owner });
    expect(csv.status).toBe(200);
    expect(csv.text).toContain(title);
    expect(csv.text).toContain(COMPOSED);
    expect(csv.text).not.toContain(DECOMPOSED);

    // One emoji past the limit is refused as the documented maxLength says, naming the field.
    const longer = await p.client.post(`/sessions/${code}/stories`, {
      token: owner,
      body: { title: `${title}🧪` },
    });
    expect(longer.status).toBe(422);
    expect(longer.body.errors).toEqual({ title: ['Too big: expected string to have <=200 characters'] });
  });
});
