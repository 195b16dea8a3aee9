import { startSessions, asUser, type SessionsHarness } from './support/sessions-harness.ts';
import { rooms } from './support/room.ts';

let h: SessionsHarness;
beforeAll(async () => {
  h = await startSessions();
});
afterAll(() => h.stop());

it('smoke', async () => {
  const r = rooms(h);
  const s = await r.createSession('ann');
  const p = await r.join(s.code, 'Bob');
  const story = await r.openStory(s);
  const v = await r.vote(s.code, p.id, '5');
  console.log(JSON.stringify(v.body), story.id);
  console.log(
    JSON.stringify(
      (await h.client.get(`/sessions/${s.code.toLowerCase()}`, { headers: asUser('ann') })).body,
    ),
  );
});
