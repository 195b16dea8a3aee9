import { asUser, startSessions, type SessionsHarness } from './support/sessions-harness.ts';

let h: SessionsHarness;
const candidates: string[] = [];
beforeAll(async () => {
  h = await startSessions({ newCode: () => candidates.shift() ?? 'ZZZZZZ' });
});
afterAll(() => h.stop());

const create = () => h.client.post('/sessions', { body: { name: 'Retro' }, headers: asUser('ann') });

describe('sessions: code collisions', () => {
  it('tries another code when the first one is taken', async () => {
    candidates.push('AAAAAA', 'AAAAAA', 'AAAAAA', 'BBBBBB');
    expect((await create()).body.session.code).toBe('AAAAAA');
    const second = await create();
    expect(second.status).toBe(201);
    expect(second.body.session.code).toBe('BBBBBB');
    expect(candidates).toHaveLength(0);
  });

  it('gives up with 409 after five taken codes, leaving no half-made session', async () => {
    candidates.push(...Array.from({ length: 5 }, () => 'AAAAAA'));
    const res = await create();
    expect(res.status).toBe(409);
    const list = await h.client.get('/sessions', { headers: asUser('ann') });
    expect(list.body.meta.total).toBe(2);
  });
});
