import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { isPortFree } from '../src/launcher/ports.ts';
import { startEmbeddedPostgres } from '../src/launcher/postgres.ts';
import { capturedLog } from './support/captured-log.ts';

const { lines, log } = capturedLog();

describe('embedded PostgreSQL', () => {
  const root = mkdtempSync(join(tmpdir(), 'pp-embedded-pg-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('starts a real server in a fresh folder on a free port, answers select 1, and stops', async () => {
    const server = await startEmbeddedPostgres(join(root, 'postgres'), log);
    const port = Number(new URL(server.serverUrl).port);
    try {
      const client = new pg.Client({ connectionString: server.serverUrl });
      await client.connect();
      const { rows } = await client.query('select 1 as one');
      await client.end();
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await server.stop();
    }
    expect(await isPortFree(port, '127.0.0.1')).toBe(true);
    expect(lines.some((l) => l.includes('database system is shut down'))).toBe(true);
  }, 60_000);
});
