import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { isAlive, readPidFile } from '../src/launcher/stale.ts';
import { units } from '../src/launcher/units.ts';
import { quickStartScript, quickStartSection, README_URL, runQuickStart } from './support/quick-start.ts';
import { startWholeSystem, type WholeSystem } from './support/whole-system.ts';

/** `npm start` for real: every unit ready, the estimation loop through the gateway, a clean stop. */
describe('the whole platform under the launcher', () => {
  let platform: WholeSystem;
  let gatewayUrl: string;
  beforeAll(async () => {
    platform = await startWholeSystem();
    gatewayUrl = platform.url;
  }, 90_000);
  afterAll(() => platform?.stop());

  const call = async (
    method: string,
    path: string,
    body?: unknown,
    token?: string,
    headers: Record<string, string> = {},
  ) => {
    const res = await fetch(gatewayUrl + path, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const json = res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined;
    return { status: res.status, body: json as any, text, headers: res.headers };
  };
  /** Until the check holds (the units learn of each other's changes through events). */
  const eventually = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await check()).toBe(true);
  };

  /** What a stream sent until the text shows up (fails after a few seconds or when the stream ends). */
  const readUntil = async (reader: ReadableStreamDefaultReader<Uint8Array>, text: string) => {
    const decoder = new TextDecoder();
    let seen = '';
    const late = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`no "${text}" in ${JSON.stringify(seen)}`)), 10_000).unref(),
    );
    while (!seen.includes(text)) {
      const { value, done } = await Promise.race([reader.read(), late]);
      if (done) throw new Error(`the stream ended before "${text}": ${JSON.stringify(seen)}`);
      seen += decoder.decode(value, { stream: true });
    }
    return seen;
  };

  it('gets every unit ready behind the gateway', async () => {
    const res = await fetch(`${gatewayUrl}/readyz`);
    const body = (await res.json()) as { checks: Record<string, string> };
    expect(res.status).toBe(200);
    for (const unit of units.filter((u) => u.name !== 'gateway')) expect(body.checks[unit.name]).toBe('ok');
  });

  it('runs the estimation loop through the gateway: session, join, story, votes, reveal, consensus', async () => {
    const owner = await call('POST', '/auth/register', {
      email: 'ann@example.test',
      password: 'a-long-password',
      name: 'Ann',
    });
    expect(owner.status).toBe(201);
    const token = owner.body.token as string;
    expect((await call('POST', '/sessions', { name: 'Sprint 1' })).status).toBe(401);
    const created = await call('POST', '/sessions', { name: 'Sprint 1' }, token);
    expect(created.status).toBe(201);
    const code = created.body.session.code as string;

    const ids: number[] = [];
    for (const name of ['Bob', 'Cleo', 'Dan'])
      ids.push((await call('POST', `/sessions/${code}/join`, { name })).body.participant.id);
    const first = await call('POST', `/sessions/${code}/stories`, { title: 'Login page' }, token);
    const second = await call('POST', `/sessions/${code}/stories`, { title: 'Logout' }, token);
    expect(first.status).toBe(201);
    expect(first.body.story.status).toBe('voting');

    const current = async () =>
      (await call('GET', `/sessions/${code.toLowerCase()}`)).body.session.current_story?.id;
    for (let i = 0; i < 200 && (await current()) !== first.body.story.id; i++)
      await new Promise((r) => setTimeout(r, 50));
    const votes = ['1', '2', '2'];
    const answers = [];
    for (const [i, id] of ids.entries())
      answers.push(await call('POST', `/sessions/${code}/vote`, { participant_id: id, vote: votes[i] }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers[2]!.body.stats).toEqual({ votes_cast: 3, total_participants: 3, all_voted: true });
    expect(JSON.stringify((await call('GET', `/sessions/${code}/participants`)).body)).not.toMatch(/"value"/);

    const stranger = await call('POST', '/auth/register', {
      email: 'eve@example.test',
      password: 'a-long-password',
      name: 'Eve',
    });
    expect(
      (await call('POST', `/stories/${first.body.story.id}/reveal`, undefined, stranger.body.token)).status,
    ).toBe(403);
    const revealed = await call('POST', `/stories/${first.body.story.id}/reveal`, undefined, token);
    expect(revealed.status).toBe(200);
    expect(revealed.body.story).toMatchObject({ status: 'revealed', final_estimate: '2' });
    expect(revealed.body.story.votes.map((v: any) => v.participant.name).sort()).toEqual([
      'Bob',
      'Cleo',
      'Dan',
    ]);
    expect((await call('POST', `/stories/${first.body.story.id}/reveal`, undefined, token)).status).toBe(409);

    for (let i = 0; i < 200 && (await current()) !== second.body.story.id; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(await current()).toBe(second.body.story.id);
  }, 60_000);

  it('runs the room’s other flows through the gateway: settings, roles, tokens, the queue, re-vote, live room, export', async () => {
    const owner = await call('POST', '/auth/register', {
      email: 'flo@example.test',
      password: 'a-long-password',
      name: 'Flo',
    });
    const token = owner.body.token as string;
    const code = (await call('POST', '/sessions', { name: 'Sprint 2' }, token)).body.session.code as string;
    const patched = await call(
      'PATCH',
      `/sessions/${code}`,
      { voting_system: 'tshirt', require_participant_token: true },
      token,
    );
    expect(patched.status).toBe(200);
    expect(patched.body.session.deck).toEqual(['XS', 'S', 'M', 'L', 'XL', 'XXL', '?', 'coffee']);
    const listed = await call('GET', '/sessions?status=active&per_page=1', undefined, token);
    expect(listed.body.meta).toMatchObject({ per_page: 1, total: 1 });

    const gus = (await call('POST', `/sessions/${code}/join`, { name: 'Gus' })).body.participant;
    const hal = (await call('POST', `/sessions/${code}/join`, { name: 'Hal' })).body.participant;
    const ivy = (await call('POST', `/sessions/${code}/join`, { name: 'Ivy', role: 'observer' })).body
      .participant;
    const as = (p: { token: string }) => ({ 'x-participant-token': p.token });
    const made = [];
    for (const title of ['A', 'B', 'C'])
      made.push((await call('POST', `/sessions/${code}/stories`, { title }, token)).body.story);
    const [a, b, c] = made;
    const current = async () => (await call('GET', `/sessions/${code}`)).body.session.current_story?.id;
    await eventually(async () => (await current()) === a.id);

    // The live room through the gateway sees a vote: who and the counts, never the value.
    const abort = new AbortController();
    const stream = await fetch(`${gatewayUrl}/sessions/${code}/events`, { signal: abort.signal });
    expect(stream.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = stream.body!.getReader();
    const vote = (p: { id: number }, value: string, headers: Record<string, string>) =>
      call('POST', `/sessions/${code}/vote`, { participant_id: p.id, vote: value }, undefined, headers);
    expect((await vote(gus, 'M', {})).body.error.code).toBe('participant_token_required');
    expect((await vote(ivy, 'M', as(ivy))).status).toBe(403);
    expect((await vote(gus, 'M', as(gus))).status).toBe(200);
    const seen = await readUntil(reader, 'event:vote.cast');
    abort.abort();
    expect(seen).toMatch(/"participant":\{"id":\d+,"name":"Gus"\}/);
    expect(seen).not.toMatch(/"M"|"value"/);

    // The queue: reorder, make C current, re-vote it, reveal it; A goes back to pending with its vote kept.
    expect((await call('PATCH', `/stories/${c.id}`, { title: 'C!', position: 1 }, token)).status).toBe(200);
    expect((await call('POST', `/stories/${c.id}/activate`, undefined, token)).status).toBe(200);
    await eventually(async () => (await current()) === c.id);
    const room = await call('GET', `/sessions/${code}/stories`);
    expect(room.body.stories.map((s: any) => [s.title, s.status])).toEqual([
      ['C!', 'voting'],
      ['A', 'pending'],
      ['B', 'pending'],
    ]);
    expect((await vote(hal, 'XL', as(hal))).body.stats).toMatchObject({
      votes_cast: 1,
      total_participants: 2,
    });
    expect((await call('POST', `/stories/${c.id}/reset`, undefined, token)).status).toBe(200);
    await eventually(async () => (await vote(gus, 'S', as(gus))).body.stats?.votes_cast === 1);
    expect((await vote(hal, 'S', as(hal))).body.stats).toMatchObject({ votes_cast: 2, all_voted: true });
    const revealed = await call('POST', `/stories/${c.id}/reveal`, undefined, token);
    expect(revealed.body.story).toMatchObject({ status: 'revealed', final_estimate: 'S' });

    // Roles and removal through the gateway; a stranger may not.
    const stranger = await call('POST', '/auth/register', {
      email: 'mal@example.test',
      password: 'a-long-password',
      name: 'Mal',
    });
    expect(
      (await call('DELETE', `/sessions/${code}/participants/${hal.id}`, undefined, stranger.body.token))
        .status,
    ).toBe(403);
    expect(
      (await call('PATCH', `/sessions/${code}/participants/${gus.id}`, { role: 'observer' }, token)).body
        .participant.role,
    ).toBe('observer');
    expect((await call('DELETE', `/sessions/${code}/participants/${hal.id}`, undefined, token)).status).toBe(
      200,
    );
    expect(
      (await call('GET', `/sessions/${code}/participants`)).body.participants.map((p: any) => p.name),
    ).toEqual(['Gus', 'Ivy']);
    expect((await call('DELETE', `/stories/${b.id}`, undefined, token)).status).toBe(200);
    expect((await call('GET', `/stories/${b.id}`, undefined, token)).status).toBe(404);

    const csv = await call('GET', `/sessions/${code}/export?format=csv`, undefined, token);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    expect(csv.text).toMatch(/C!.*revealed.*S/);
    expect(
      (await call('GET', `/sessions/${code}/export?format=csv`, undefined, stranger.body.token)).status,
    ).toBe(403);
  }, 60_000);

  it("runs the README's quick start as written: sign up, session, story, join, vote, reveal, the final estimate", async () => {
    const script = quickStartScript(gatewayUrl);
    expect(script).toContain(gatewayUrl);
    expect(script).not.toContain(README_URL);
    // Every step succeeds: bash stops at the first command that fails or gets an error answer.
    const { stdout, stderr } = await runQuickStart(gatewayUrl);
    expect(stderr).toBe('');
    const printed = stdout.trim().split('\n');
    expect(printed[0]).toMatch(/all_voted: true/);
    expect(printed[1]).toMatch(/name: 'Bob'.*value: '5'/);
    expect(printed.at(-1)).toBe('5');
    // What the section points to answers: the docs, the OpenAPI document, and GET / names both.
    for (const path of ['/docs', '/openapi.json']) {
      expect(quickStartSection()).toContain(path);
      expect((await fetch(gatewayUrl + path)).status).toBe(200);
    }
    expect((await call('GET', '/')).body.data).toMatchObject({ docs: '/docs', openapi: '/openapi.json' });
  });

  it('runs its broker for the units’ own users only, none of them refused a subject on the way', async () => {
    const port = platform.lines
      .map((l) => /started nats-server with JetStream on 127\.0\.0\.1:(\d+)/.exec(l)?.[1])
      .find(Boolean);
    await expect(connect({ servers: `nats://127.0.0.1:${port}`, timeout: 3_000 })).rejects.toThrow(
      /Authorization Violation/i,
    );
    // The flows above went through with each unit limited to its own subjects.
    expect(
      platform.lines.filter((l) => /(Permissions|Publish|Subscription|Authorization) Violation/i.test(l)),
    ).toEqual([]);
  });

  it('stops with nothing left running', async () => {
    const { dataDir, system } = platform;
    const postgresPid = readPidFile(join(dataDir, 'postgres', 'postmaster.pid'))!;
    const natsPid = readPidFile(join(dataDir, 'nats', 'nats-server.pid'))!;
    const unitPids = readFileSync(join(dataDir, 'units.pid'), 'utf8').split('\n').map(Number);
    expect(unitPids).toHaveLength(units.length);
    await system.stop();
    expect([...unitPids, postgresPid, natsPid].filter(isAlive)).toEqual([]);
  }, 90_000);
});
