import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { services } from '@pp/config';
import { createLineWriter, formatLogLine, prefixLine } from '../src/launcher/log.ts';
import { firstNatsAddress } from '../src/launcher/nats.ts';
import { redactPassword } from '../src/launcher/postgres.ts';
import { findFreePort, isPortFree } from '../src/launcher/ports.ts';
import { restartDelay } from '../src/launcher/processes.ts';
import {
  loadSecrets,
  NATS_PASSWORD_NAMES,
  parseEnvFile,
  SECRET_NAMES,
  type Secrets,
} from '../src/launcher/secrets.ts';
import { databaseUrls, unitEnvironment, units } from '../src/launcher/units.ts';

const secrets: Secrets = {
  INTERNAL_SIGNING_KEY: 'i'.repeat(43),
  TOKEN_SIGNING_KEY: 't'.repeat(43),
  CREDENTIALS_ENCRYPTION_KEY: 'c'.repeat(43),
  ...Object.fromEntries(NATS_PASSWORD_NAMES.map((n) => [n, `${n.toLowerCase()}-0123456789`])),
};
const ports = new Map(units.map((u, i) => [u.name, 9000 + i]));
const context = (env: Record<string, string | undefined> = {}) => ({
  env,
  databaseServerUrl: 'postgres://postgres:pw@db.local:5433/postgres?sslmode=disable',
  natsUrl: 'nats://127.0.0.1:4333',
  secrets,
  ports,
});

describe('database URLs', () => {
  it('gives every service that keeps data its own database on the server of DATABASE_URL, and the gateway and mcp none', () => {
    const urls = databaseUrls('postgres://postgres:pw@db.local:5433/postgres');
    expect(Object.keys(urls).sort()).toEqual(
      services
        .filter((s) => s.database)
        .map((s) => s.name)
        .sort(),
    );
    expect(urls.sessions).toBe('postgres://postgres:pw@db.local:5433/pp_sessions');
    expect(urls).not.toHaveProperty('gateway');
    expect(urls).not.toHaveProperty('mcp');
  });

  it('keeps the query string of the server URL', () => {
    expect(databaseUrls('postgres://u@h:1/postgres?sslmode=require').ai).toBe(
      'postgres://u@h:1/pp_ai?sslmode=require',
    );
  });
});

describe('logged database URL', () => {
  it('hides the password and keeps the rest', () => {
    expect(redactPassword('postgres://app:s3cret@db:5432/postgres')).toBe(
      'postgres://app:***@db:5432/postgres',
    );
    expect(redactPassword('postgres://postgres@127.0.0.1:5432/postgres')).toBe(
      'postgres://postgres@127.0.0.1:5432/postgres',
    );
  });
});

describe('unit environment', () => {
  const unit = (name: string) => units.find((u) => u.name === name)!;

  it("hands a service its own database, its port, NATS, the secrets and every service's URL", () => {
    const env = unitEnvironment(
      unit('stories'),
      context({ DATABASE_URL: 'postgres://x@y/z', RATE_LIMIT_PER_MINUTE: '5' }),
    );
    expect(env.DATABASE_URL).toBe('postgres://postgres:pw@db.local:5433/pp_stories?sslmode=disable');
    expect(env.PORT).toBe(String(ports.get('stories')));
    expect(env.NATS_URL).toBe('nats://127.0.0.1:4333');
    expect(env.SESSIONS_URL).toBe(`http://127.0.0.1:${ports.get('sessions')}`);
    expect(env.WEBHOOKS_URL).toBe(`http://127.0.0.1:${ports.get('webhooks')}`);
    expect(env.INTERNAL_SIGNING_KEY).toBe(secrets.INTERNAL_SIGNING_KEY);
    expect(env.RATE_LIMIT_PER_MINUTE).toBe('5');
    expect(env.LOG_LEVEL).toBe('info');
  });

  it("gives each replica its own port and every unit the fronts' URLs, and the cluster's stream replicas", () => {
    const replicaPorts = new Map(units.map((u, i) => [u.name, [9100 + 2 * i, 9101 + 2 * i]]));
    const ctx = { ...context(), replicaPorts, eventsReplicas: 3 };
    const second = unitEnvironment(unit('stories'), ctx, 1);
    expect(second.PORT).toBe(String(replicaPorts.get('stories')![1]));
    expect(second.SESSIONS_URL).toBe(`http://127.0.0.1:${ports.get('sessions')}`);
    expect(second.EVENTS_REPLICAS).toBe('3');
    expect(unitEnvironment(unit('stories'), { ...ctx, env: { EVENTS_REPLICAS: '1' } }).EVENTS_REPLICAS).toBe(
      '1',
    );
    expect(unitEnvironment(unit('stories'), context())).not.toHaveProperty('EVENTS_REPLICAS');
  });

  it('gives the gateway no DATABASE_URL, even when the launcher has one', () => {
    const env = unitEnvironment(
      unit('gateway'),
      context({ DATABASE_URL: 'postgres://x@y/z', LOG_LEVEL: 'debug' }),
    );
    expect(env).not.toHaveProperty('DATABASE_URL');
    expect(env.IDENTITY_URL).toBe(`http://127.0.0.1:${ports.get('identity')}`);
    expect(env.LOG_LEVEL).toBe('debug');
  });

  it('has every service listen on loopback, and the gateway on HOST (loopback when unset)', () => {
    for (const u of units.filter((u) => u.name !== 'gateway'))
      expect([u.name, unitEnvironment(u, context({ HOST: '0.0.0.0' })).HOST]).toEqual([u.name, '127.0.0.1']);
    expect(unitEnvironment(unit('gateway'), context()).HOST).toBe('127.0.0.1');
    expect(unitEnvironment(unit('gateway'), context({ HOST: '0.0.0.0' })).HOST).toBe('0.0.0.0');
    // With several gateway replicas their front takes HOST; the replicas stay on loopback behind it.
    const behindFront = {
      ...context({ HOST: '0.0.0.0' }),
      replicaPorts: new Map([['gateway', [9100, 9101]]]),
    };
    expect(unitEnvironment(unit('gateway'), behindFront, 1).HOST).toBe('127.0.0.1');
    expect(() => unitEnvironment(unit('gateway'), context({ HOST: 'my-laptop' }))).toThrow(
      'HOST must be an IP address such as 127.0.0.1 or 0.0.0.0, not "my-laptop"',
    );
  });

  it('connects each unit to the broker it runs as its own user, with its own password only', () => {
    const ctx = { ...context({ SESSIONS_NATS_PASSWORD: 'exported-by-hand' }), natsUsers: true };
    const stories = unitEnvironment(unit('stories'), ctx);
    expect(stories.NATS_USER).toBe('stories');
    expect(stories.NATS_PASSWORD).toBe(secrets.STORIES_NATS_PASSWORD);
    for (const name of NATS_PASSWORD_NAMES) expect(stories).not.toHaveProperty(name);
    expect(unitEnvironment(unit('gateway'), ctx).NATS_USER).toBe('gateway');
    // mcp does not use the broker.
    expect(unitEnvironment(unit('mcp'), ctx)).not.toHaveProperty('NATS_PASSWORD');
  });

  it("passes on the user's NATS_USER and NATS_PASSWORD, if any, to a broker of NATS_URL", () => {
    const env = unitEnvironment(unit('stories'), context({ NATS_USER: 'app', NATS_PASSWORD: 'pw' }));
    expect([env.NATS_USER, env.NATS_PASSWORD]).toEqual(['app', 'pw']);
    expect(unitEnvironment(unit('stories'), context())).not.toHaveProperty('NATS_USER');
  });

  it('runs the gateway and every unit of libs/config, each from its own main.ts', () => {
    expect(units.map((u) => u.name).sort()).toEqual([...services.map((s) => s.name), 'gateway'].sort());
    expect(units.find((u) => u.name === 'sessions')!.entry).toBe(
      join('services', 'sessions', 'src', 'main.ts'),
    );
  });
});

describe('secrets file', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'pp-secrets-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('generates every secret once, keeps it in a private file and reuses it on the next start', () => {
    const file = join(dir, 'nested', 'secrets.env');
    const first = loadSecrets(file, {});
    expect(first.generated).toEqual([...SECRET_NAMES]);
    for (const name of SECRET_NAMES) expect(first.secrets[name]!.length).toBeGreaterThanOrEqual(32);
    expect(new Set(Object.values(first.secrets)).size).toBe(SECRET_NAMES.length);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const second = loadSecrets(file, {});
    expect(second.generated).toEqual([]);
    expect(second.secrets).toEqual(first.secrets);
  });

  it('prefers the environment and writes nothing when everything is set there', () => {
    const file = join(dir, 'secrets.env');
    const env = Object.fromEntries(
      SECRET_NAMES.map((n) => [n, `${n.toLowerCase()}-from-env-0123456789abcdef`]),
    );
    const loaded = loadSecrets(file, env);
    expect(loaded.secrets.TOKEN_SIGNING_KEY).toBe(env.TOKEN_SIGNING_KEY);
    expect(() => readFileSync(file)).toThrow();
  });

  it('adds only the missing secret to a file that has the others', () => {
    const file = join(dir, 'secrets.env');
    const first = loadSecrets(file, {});
    const text = readFileSync(file, 'utf8').replace(/^TOKEN_SIGNING_KEY=.*\n/m, '');
    writeFileSync(file, text);
    const again = loadSecrets(file, {});
    expect(again.generated).toEqual(['TOKEN_SIGNING_KEY']);
    expect(again.secrets.INTERNAL_SIGNING_KEY).toBe(first.secrets.INTERNAL_SIGNING_KEY);
    expect(again.secrets.TOKEN_SIGNING_KEY).not.toBe(first.secrets.TOKEN_SIGNING_KEY);
  });

  it('reads KEY=value lines, skipping comments and blanks', () => {
    expect(parseEnvFile('# c\n\nA=1\nB = x=y \n')).toEqual({ A: '1', B: 'x=y' });
  });
});

describe('ports', () => {
  it('keeps the preferred port when it is free and picks another when it is taken', async () => {
    const server = net.createServer().listen(0);
    await new Promise((r) => server.once('listening', r));
    const busy = (server.address() as net.AddressInfo).port;
    try {
      expect(await isPortFree(busy)).toBe(false);
      const other = await findFreePort(busy);
      expect(other).not.toBe(busy);
      expect(await isPortFree(other)).toBe(true);
    } finally {
      await new Promise((r) => server.close(r));
    }
    expect(await findFreePort(busy)).toBe(busy);
  });

  it('never hands out a port already promised to another unit', async () => {
    const free = await findFreePort(0);
    expect(await findFreePort(free, new Set([free]))).not.toBe(free);
  });
});

describe('log lines', () => {
  it('prefixes each line with the padded name of its process', () => {
    expect(prefixLine('ai', 8, 'hello')).toBe('[ai      ] hello');
    expect(prefixLine('ai', 2, 'hello', 36)).toBe('\x1b[36m[ai]\x1b[0m hello');
  });

  it('pads to the longest name and drops trailing whitespace', () => {
    const out: string[] = [];
    const write = createLineWriter(['integrations', 'ai'], (t) => out.push(t));
    write('ai', 'ready  \r');
    expect(out).toEqual([`[${'ai'.padEnd('integrations'.length)}] ready\n`]);
  });
});

describe('readable unit logs', () => {
  it('turns a pino JSON line into time, level, message and the other fields', () => {
    const line = JSON.stringify({
      level: 'info',
      time: '2026-01-02T03:04:05.000Z',
      service: 'identity',
      name: 'identity',
      port: 8081,
      checks: { db: 'ok' },
      msg: 'identity listening',
    });
    expect(formatLogLine(line)).toMatch(
      /^\d\d:\d\d:05 INFO  identity listening port=8081 checks=\{"db":"ok"\}$/,
    );
  });

  it('names numeric pino levels and leaves anything else untouched', () => {
    expect(formatLogLine('{"level":50,"msg":"boom"}')).toBe('ERROR boom');
    expect(formatLogLine('{"not":"pino"}')).toBe('{"not":"pino"}');
    expect(formatLogLine('{broken')).toBe('{broken');
    expect(formatLogLine('plain text')).toBe('plain text');
  });
});

describe('restart backoff', () => {
  it('doubles from half a second and stops growing at 30 seconds', () => {
    expect([1, 2, 3, 4].map(restartDelay)).toEqual([500, 1000, 2000, 4000]);
    expect(restartDelay(20)).toBe(30_000);
  });
});

describe('NATS_URL', () => {
  it('names the host and port of the first server of a list', () => {
    expect(firstNatsAddress('nats://10.0.0.5:4333,nats://10.0.0.6:4333')).toEqual({
      host: '10.0.0.5',
      port: 4333,
    });
    expect(firstNatsAddress('nats://localhost')).toEqual({ host: 'localhost', port: 4222 });
  });
});
