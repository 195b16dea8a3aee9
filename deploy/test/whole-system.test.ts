import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LauncherLog } from '../src/launcher/log.ts';
import { isAlive, readPidFile } from '../src/launcher/stale.ts';
import { createSystem } from '../src/launcher/system.ts';
import { units } from '../src/launcher/units.ts';

const lines: string[] = [];
const log: LauncherLog = {
  info: (m) => lines.push(`launcher: ${m}`),
  warn: (m) => lines.push(`launcher: ${m}`),
  error: (m) => lines.push(`launcher: ${m}`),
  line: (name, text) => lines.push(`${name}: ${text}`),
};

/**
 * `npm start` for real: the gateway and every service from their own main.ts, with the launcher's own
 * PostgreSQL and NATS in a temp folder: every unit ready, the estimation loop through the gateway, a clean stop.
 */
describe('the whole platform under the launcher', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-platform-'));
  const system = createSystem({
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000' },
    dataDir,
    log,
    readyTimeoutMs: 60_000,
    // Any free ports, so a running `npm start` on this machine does not matter.
    units: units.map((u) => ({ ...u, preferredPort: 0 })),
  });
  afterAll(async () => {
    await system.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  let gatewayUrl: string;
  beforeAll(async () => {
    gatewayUrl = await system.start().catch((err: Error) => {
      throw new Error(`${err.message}\n${lines.slice(-40).join('\n')}`);
    });
  }, 90_000);

  it('gets every unit ready behind the gateway', async () => {
    const res = await fetch(`${gatewayUrl}/readyz`);
    const body = (await res.json()) as { checks: Record<string, string> };
    expect(res.status).toBe(200);
    for (const unit of units.filter((u) => u.name !== 'gateway')) expect(body.checks[unit.name]).toBe('ok');
  });

  it('runs the estimation loop through the gateway: session, join, story, votes, reveal, consensus', async () => {
    const call = async (method: string, path: string, body?: unknown, token?: string) => {
      const res = await fetch(gatewayUrl + path, {
        method,
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
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

  it('stops with nothing left running', async () => {
    const postgresPid = readPidFile(join(dataDir, 'postgres', 'postmaster.pid'))!;
    const natsPid = readPidFile(join(dataDir, 'nats', 'nats-server.pid'))!;
    const unitPids = readFileSync(join(dataDir, 'units.pid'), 'utf8').split('\n').map(Number);
    expect(unitPids).toHaveLength(units.length);
    await system.stop();
    expect([...unitPids, postgresPid, natsPid].filter(isAlive)).toEqual([]);
  }, 90_000);
});
