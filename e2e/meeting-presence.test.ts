/**
 * Presence in the live room with two replicas of the sessions unit: a participant's stream (opened
 * with its X-Participant-Token) on one replica marks it connected for the room's streams on the
 * other, in the participants list and in the room read; closing it marks it away after the grace.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { openStream, until } from '@pp/testing';
import { startPlatform, type Platform } from './support/platform.ts';

const GRACE_MS = 1_500;

describe('presence across two replicas', () => {
  let p: Platform;
  let owner: string;
  let a: string;
  let b: string;
  beforeAll(async () => {
    p = await startPlatform({
      replicas: 2,
      sessionsEnv: { PRESENCE_GRACE_MS: String(GRACE_MS), PRESENCE_SWEEP_MS: '100' },
    });
    owner = await p.signUp('Pia');
    [a, b] = p.sessionsReplicas as [string, string];
  });
  afterAll(() => p.stop());

  const room = async () => {
    const code = (await p.client.post('/sessions', { body: { name: 'Here' }, token: owner })).body.session
      .code as string;
    const joined = (await p.client.post(`/sessions/${code}/join`, { body: { name: 'Pat' } })).body
      .participant;
    return { code, id: joined.id as number, token: joined.token as string };
  };
  const connectedOf = async (code: string, id: number) => {
    const listed = await p.client.get(`/sessions/${code}/participants`);
    return listed.body.participants.find((x: { id: number }) => x.id === id).connected as boolean;
  };
  const presenceOf = (stream: Awaited<ReturnType<typeof openStream>>, id: number) =>
    stream.events.filter((e) => e.event === 'participant.presence' && e.data.participant.id === id);

  it('marks a participant connected while its stream is open on either replica, and away after the grace', async () => {
    const { code, id, token } = await room();
    expect(await connectedOf(code, id)).toBe(false);
    const watcher = await openStream(`${b}/sessions/${code}/events`);
    const seat = await openStream(`${a}/sessions/${code}/events`, { 'x-participant-token': token });
    expect(seat.status).toBe(200);

    const joined = await watcher.waitFor((e) => e.event === 'participant.presence');
    expect(joined.data).toMatchObject({ participant: { id, name: 'Pat' }, connected: true });
    expect(await connectedOf(code, id)).toBe(true);
    const read = await p.client.get(`/sessions/${code}/room`);
    expect(read.body.participants.find((x: { id: number }) => x.id === id).connected).toBe(true);

    // A reconnect within the grace (to the other replica) does not flicker.
    await seat.close();
    const again = await openStream(`${b}/sessions/${code}/events`, { 'x-participant-token': token });
    await sleep(GRACE_MS + 500);
    expect(presenceOf(watcher, id).map((e) => e.data.connected)).toEqual([true]);
    expect(await connectedOf(code, id)).toBe(true);

    const closedAt = Date.now();
    await again.close();
    const away = await watcher.waitFor((e) => e.event === 'participant.presence' && !e.data.connected);
    expect(away.data.participant.id).toBe(id);
    expect(Date.now() - closedAt).toBeGreaterThanOrEqual(GRACE_MS - 200);
    expect(await connectedOf(code, id)).toBe(false);
    expect(presenceOf(watcher, id).map((e) => e.data.connected)).toEqual([true, false]);
    await watcher.close();
  });

  it('goes through the gateway, and a stream without a valid token marks no one', async () => {
    const { code, id, token } = await room();
    const watcher = await p.room(code);
    const stranger = await p.room(code, { 'x-participant-token': 'not-a-token' });
    const anonymous = await p.room(code);
    await sleep(500);
    expect(await connectedOf(code, id)).toBe(false);
    const seat = await p.room(code, { 'x-participant-token': token });
    await watcher.waitFor((e) => e.event === 'participant.presence' && e.data.connected);
    await until(async () => await connectedOf(code, id), 5_000);
    for (const s of [seat, stranger, anonymous, watcher]) await s.close();
    // The activity tells what happened in the room, not who came and went.
    const activity = await p.client.get(`/sessions/${code}/activity`, { token: owner });
    expect(activity.status).toBe(200);
    expect(activity.body.activity.map((e: { type: string }) => e.type)).toEqual(['participant.joined']);
  });
});
