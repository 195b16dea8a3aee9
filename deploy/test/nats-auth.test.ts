import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { publicEventTypes } from '@pp/contracts';
import { brokerUserNames, brokerUsers, eventBus, ensureStream, natsPasswordVariable } from '@pp/events';
import { startNatsServer } from '@pp/testing';
import { storyEventsConsumers } from '../../services/ai/src/background/story-events.consumer.ts';
import { consumers as storiesConsumers } from '../../services/stories/src/background/index.ts';
import { durableFor } from '../../services/webhooks/src/background/event-subscriptions.ts';
import { natsAuthorization, natsPasswordEnvironment } from '../src/launcher/nats-auth.ts';
import { loadSecrets, NATS_PASSWORD_NAMES } from '../src/launcher/secrets.ts';
import { repoRoot } from '../src/launcher/units.ts';

/** A password for each unit, as `npm start` generates them. */
const passwords = Object.fromEntries(
  brokerUserNames.map((u) => [natsPasswordVariable(u), `pw-${u}-0123456789`]),
);

/** The rendered authorization on a nats-server of the test's own: who may connect, who may publish what. */
describe('the broker with the rendered authorization', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pp-nats-auth-'));
  const config = join(dir, 'nats.conf');
  writeFileSync(config, natsAuthorization());
  let server: Awaited<ReturnType<typeof startNatsServer>>;
  const as = (user: string) =>
    connect({
      servers: server.url,
      user,
      pass: passwords[natsPasswordVariable(user as never)],
      timeout: 10_000,
    });
  beforeAll(async () => {
    server = await startNatsServer({ config, env: passwords, storeDir: join(dir, 'store') });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a connection without credentials, or with another unit’s password', async () => {
    await expect(connect({ servers: server.url, timeout: 10_000 })).rejects.toThrow(
      /Authorization Violation/i,
    );
    await expect(
      connect({
        servers: server.url,
        user: 'stories',
        pass: passwords.SESSIONS_NATS_PASSWORD,
        timeout: 10_000,
      }),
    ).rejects.toThrow(/Authorization Violation/i);
  });

  it('lets sessions publish pp.session.created, and refuses it to stories', async () => {
    const sessions = await as('sessions');
    const stories = await as('stories');
    try {
      await ensureStream(sessions, eventBus('pp'));
      const ack = await jetstream(sessions).publish('pp.session.created', '{}');
      expect(ack.seq).toBeGreaterThan(0);
      await expect(
        jetstream(stories, { timeout: 3_000 }).publish('pp.session.created', '{}'),
      ).rejects.toThrow(/Permissions Violation for Publish to "pp\.session\.created"/);
      // Its own events it may publish.
      expect((await jetstream(stories).publish('pp.story.created', '{}')).seq).toBeGreaterThan(ack.seq);
    } finally {
      await Promise.all([sessions.close(), stories.close()]);
    }
  });

  it('lets the gateway listen for revocations and publish nothing', async () => {
    const gateway = await as('gateway');
    try {
      const sub = gateway.subscribe('pp.token.revoked', { max: 1 });
      await gateway.flush();
      await expect(jetstream(gateway, { timeout: 3_000 }).publish('pp.token.revoked', '{}')).rejects.toThrow(
        /Permissions Violation for Publish/,
      );
      sub.unsubscribe();
    } finally {
      await gateway.close();
    }
  });
});

describe('the units’ broker passwords', () => {
  it('are generated as nats-server reads them from its environment: a string, never a number', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-nats-passwords-'));
    try {
      const { secrets } = loadSecrets(join(dir, 'secrets.env'), {});
      const env = natsPasswordEnvironment(secrets);
      for (const name of NATS_PASSWORD_NAMES) expect(env[name]).toMatch(/^[A-Za-z][A-Za-z0-9_-]{15,}$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses one set by hand that nats-server would read as a number, naming its variable', () => {
    expect(() =>
      natsPasswordEnvironment({ ...passwords, STORIES_NATS_PASSWORD: '12e45abcdef0123456789' }),
    ).toThrow(/^STORIES_NATS_PASSWORD must be/);
  });
});

describe('the permission map', () => {
  /**
   * Each unit's durable consumers as its code declares them: durable name and subject filter. The
   * ai unit's, the stories unit's and the webhooks unit's are made in code (some a durable per type),
   * so they are asked of it; the others' are read from their `*.consumer.ts` files.
   */
  const asDeclared = (specs: Array<{ durable: string; filterSubject: string }>) =>
    specs.map((c) => ({ durable: c.durable, filter: c.filterSubject.slice('P.'.length) }));
  const consumersOf = (unit: string) => {
    if (unit === 'ai') return asDeclared(storyEventsConsumers('P', () => ({}) as never));
    if (unit === 'stories')
      return asDeclared(storiesConsumers({ bus: eventBus('P') } as never, () => ({}) as never));
    if (unit === 'webhooks')
      return publicEventTypes.map((type) => ({ durable: durableFor(type), filter: type as string }));
    const dir = join(repoRoot, 'services', unit, 'src', 'background');
    const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.consumer.ts')) : [];
    return files.map((f) => {
      const code = readFileSync(join(dir, f), 'utf8');
      const durable = /durable:\s*[`'"]([\w-]+)[`'"]/.exec(code)![1]!;
      const filter = /filterSubject:\s*`\$\{prefix\}\.([^`]+)`/.exec(code)![1]!;
      return { durable, filter };
    });
  };

  it.each(['stories', 'ai', 'integrations', 'webhooks'] as const)(
    'lets %s dead-letter for each of its consumers and read what each filters',
    (unit) => {
      const consumers = consumersOf(unit);
      expect(consumers.length).toBeGreaterThan(0);
      expect(consumers.map((c) => c.durable).sort()).toEqual([...brokerUsers[unit].durables].sort());
      expect(consumers.map((c) => c.filter).sort()).toEqual([...brokerUsers[unit].consumes].sort());
    },
  );

  it('gives no dead letters to the units without durable consumers', () => {
    for (const unit of ['identity', 'sessions'] as const) {
      expect(consumersOf(unit)).toEqual([]);
      expect(brokerUsers[unit].durables).toEqual([]);
    }
  });
});
