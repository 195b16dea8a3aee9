/**
 * Ownership through the gateway, across every unit: another signed-in user, with a valid body, tries
 * every path of the route table that names a resource of the owner (a session, a story, a participant,
 * a folder, a template, a token, a tracker connection, a webhook, a delivery). Each is refused with 403
 * (an unknown id would be a 404: these exist), the owner's resources are as they were afterwards, and
 * the other user's own lists show none of them. A new path that names a resource fails here until it is listed.
 * Last, the owner deletes each of them, asking many times at once: one request deletes it, the others
 * find it gone (404).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { routeTable } from '../gateway/src/routes.ts';
import { startPlatform, type Platform } from './support/platform.ts';

/** A request the intruder makes: a body a unit would accept from the owner. */
const BODIES: Record<string, unknown> = {
  'PATCH /sessions/{code}': { name: 'Taken over' },
  'PATCH /sessions/{code}/participants/{id}': { role: 'observer' },
  'PATCH /folders/{id}': { name: 'Taken over' },
  'PATCH /workspace/templates/{template}': { name: 'Taken over' },
  'POST /workspace/templates/{template}/sessions': { name: 'From their template' },
  'POST /sessions/{code}/stories': { title: 'Planted story' },
  'POST /sessions/{code}/countdown': { seconds: 60 },
  'POST /sessions/{code}/quick-vote': {},
  'PATCH /stories/{story}': { title: 'Taken over' },
  'POST /sessions/{code}/ai/draft-stories': { prompt: 'A login page' },
  'PATCH /integrations/connections/{connection}': { name: 'Taken over' },
  'POST /sessions/{code}/integrations/import-confirm': { provider: 'csv', csv: 'title\nPlanted' },
  'POST /sessions/{code}/integrations/sync-estimates': {},
  'PATCH /webhooks/{id}': { enabled: false },
};

/** Paths whose parameter names no one's resource: the intruder's own sign-in or session with a provider. */
const NOT_A_RESOURCE = new Set([
  'GET /auth/oauth/{provider}/start',
  'GET /auth/oauth/{provider}/callback',
  'GET /integrations/oauth/{provider}/start',
  'GET /integrations/oauth/{provider}/callback',
]);

describe('ownership: every path that names a resource refuses another user', () => {
  let p: Platform;
  let endpoint: Server;
  let owner: string;
  let intruder: string;
  const ids: Record<string, string> = {};
  /** Each resource of the owner, as the owner reads it before and after. */
  const reads: Array<[path: string, pick: (body: Record<string, any>) => unknown]> = [];

  beforeAll(async () => {
    endpoint = createServer((_req, res) => res.writeHead(204).end());
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    p = await startPlatform({ aiEnv: {}, integrationsEnv: {}, webhooksEnv: {} });
    owner = await p.signUp('Owner');
    intruder = await p.signUp('Intruder');
    const ok = async (res: Promise<{ status: number; body: any; text: string }>) => {
      const r = await res;
      if (r.status >= 300) throw new Error(`setup answered ${r.status}: ${r.text}`);
      return r.body;
    };

    const session = (await ok(p.client.post('/sessions', { body: { name: 'Mine' }, token: owner }))).session;
    ids.code = session.code;
    ids.story = (
      await ok(p.client.post(`/sessions/${session.code}/stories`, { body: { title: 'Mine' }, token: owner }))
    ).story.id;
    const participant = (await ok(p.client.post(`/sessions/${session.code}/join`, { body: { name: 'Bob' } })))
      .participant;
    ids.participant = String(participant.id);
    ids.folder = (
      await ok(p.client.post('/folders', { body: { name: 'Mine', color: '#3366ff' }, token: owner }))
    ).folder.id;
    ids.template = (
      await ok(p.client.post('/workspace/templates', { body: { name: 'Mine' }, token: owner }))
    ).template.id;
    ids.token = (
      await ok(p.client.post('/auth/tokens', { body: { name: 'Mine', kind: 'api' }, token: owner }))
    ).token.id;
    ids.connection = (
      await ok(
        p.client.post('/integrations/connections', {
          body: {
            provider: 'github',
            credentials: { token: 'ghp_owner' },
            settings: { api_url: 'http://127.0.0.1:9', owner: 'octo', repository: 'mine' },
          },
          token: owner,
        }),
      )
    ).connection.id;
    const address = endpoint.address() as AddressInfo;
    ids.webhook = (
      await ok(
        p.client.post('/webhooks', {
          body: { url: `http://127.0.0.1:${address.port}/hook`, events: ['*'] },
          token: owner,
        }),
      )
    ).webhook.id;
    await ok(p.client.post(`/webhooks/${ids.webhook}/test`, { token: owner }));
    ids.delivery = (
      await ok(p.client.get(`/webhooks/${ids.webhook}/deliveries`, { token: owner }))
    ).deliveries[0].id;

    reads.push(
      [`/sessions/${ids.code}`, (b) => [b.session.name, b.session.status, b.session.current_story?.id]],
      [`/stories/${ids.story}`, (b) => [b.story.title, b.story.status]],
      [`/sessions/${ids.code}/stories`, (b) => b.stories.map((s: { id: string }) => s.id)],
      [
        `/sessions/${ids.code}/participants`,
        (b) => b.participants.map((x: { id: number; role: string }) => [x.id, x.role]),
      ],
      ['/folders', (b) => b.folders.map((f: { id: string; name: string }) => [f.id, f.name])],
      [`/workspace/templates/${ids.template}`, (b) => b.template.name],
      ['/auth/tokens', (b) => b.tokens.map((t: { id: string }) => t.id)],
      [`/webhooks/${ids.webhook}`, (b) => [b.webhook.url, b.webhook.enabled]],
      [`/webhooks/${ids.webhook}/deliveries`, (b) => b.deliveries.length],
      [
        '/integrations/connections',
        (b) => b.connections.map((c: { id: string; name: string }) => [c.id, c.name]),
      ],
    );
  }, 60_000);

  afterAll(async () => {
    await p?.stop();
    await new Promise((resolve) => endpoint?.close(resolve));
  });

  /** What {id} stands for, by the path's first segment (`{id}` names a participant under a session). */
  const idOf = (key: string) =>
    key.includes('/participants/')
      ? 'participant'
      : ({ auth: 'token', folders: 'folder', webhooks: 'webhook' } as Record<string, string>)[
          key.split('/')[1]!
        ];
  const placeholder = (key: string, name: string): string => {
    const id = ids[name === 'id' ? (idOf(key) ?? name) : name];
    if (!id) throw new Error(`${key}: no resource of the owner stands for {${name}}`);
    return id;
  };
  const pathOf = (key: string) =>
    key.split(' ')[1]!.replace(/\{(\w+)\}/g, (_m, name: string) => placeholder(key, name));
  const owned = () =>
    routeTable
      .filter((r) => r.access !== 'public' && r.path.includes('{'))
      .map((r) => `${r.method} ${r.path}`)
      .filter((key) => !NOT_A_RESOURCE.has(key));

  const snapshot = async () =>
    Promise.all(
      reads.map(async ([path, pick]) => {
        const res = await p.client.raw.get(path, { token: owner });
        expect(res.status).toBe(200);
        return pick(res.body);
      }),
    );

  it('refuses each of them with 403 and changes nothing of the owner', async () => {
    const before = await snapshot();
    const answers: Record<string, number> = {};
    for (const key of owned()) {
      const method = key.split(' ')[0]!.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
      const res = await p.client.raw[method](pathOf(key), { token: intruder, body: BODIES[key] });
      answers[key] = res.status;
    }
    // The ids name real resources: the owner reads each of them.
    for (const key of owned().filter((k) => k.startsWith('GET ')))
      expect([key, (await p.client.raw.get(pathOf(key), { token: owner })).status]).toEqual([key, 200]);
    // Every unit's paths are among them (a unit missing here would mean the sweep skipped it).
    expect(
      new Set(Object.keys(answers).map((k) => routeTable.find((r) => `${r.method} ${r.path}` === k)!.unit)),
    ).toEqual(new Set(['identity', 'sessions', 'stories', 'ai', 'integrations', 'webhooks']));
    expect(Object.entries(answers).filter(([, status]) => status !== 403)).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it("shows the intruder none of the owner's resources in its own lists", async () => {
    const lists = [
      '/sessions',
      '/folders',
      '/workspace/templates',
      '/auth/tokens',
      '/webhooks',
      '/integrations/connections',
      '/integrations/sync-logs',
    ];
    const mine = Object.values(ids);
    for (const path of lists) {
      const res = await p.client.raw.get(path, { token: intruder });
      expect([path, res.status]).toEqual([path, 200]);
      const leaked = mine.filter((id) => id.length > 6 && res.text.includes(id));
      expect([path, leaked]).toEqual([path, []]);
    }
    // The session's code is public (people join with it), but not among the intruder's sessions.
    const sessions = await p.client.get('/sessions', { token: intruder });
    expect(sessions.body.sessions.map((s: { code: string }) => s.code)).not.toContain(ids.code);
  });

  it('deletes each resource once when its owner asks many times at once: one 200, the rest 404', async () => {
    // Stopping a countdown ends no resource: each repeat answers 200 with `stopped: false`.
    const deletes = owned().filter(
      (key) => key.startsWith('DELETE ') && key !== 'DELETE /sessions/{code}/countdown',
    );
    expect(deletes).toHaveLength(7);
    for (const key of deletes) {
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => p.client.raw.delete(pathOf(key), { token: owner })),
      );
      expect([key, answers.map((r) => r.status).sort()]).toEqual([key, [200, ...Array(11).fill(404)]]);
    }
  });
});
