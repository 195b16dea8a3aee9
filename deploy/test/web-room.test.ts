import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildWebRoom } from '../src/launcher/web-room.ts';
import { launch } from './support/launched.ts';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

function recordingLog() {
  const lines: string[] = [];
  return {
    lines,
    log: {
      info: (m: string) => lines.push(`info ${m}`),
      warn: (m: string) => lines.push(`warn ${m}`),
      error: (m: string) => lines.push(`error ${m}`),
      line: () => undefined,
    },
  };
}

describe('the launcher and the web room', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'pp-web-build-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('says what the build did, and starts anyway when the build fails (the gateway then serves the API only)', async () => {
    const ok = join(scratch, 'ok.ts');
    writeFileSync(ok, "process.stdout.write('web room: built in 1 ms\\n');");
    const failing = join(scratch, 'failing.ts');
    writeFileSync(failing, "process.stderr.write('vite: cannot parse src/main.tsx\\n'); process.exit(1);");
    const good = recordingLog();
    expect(await buildWebRoom(good.log, ok)).toBe(true);
    expect(good.lines).toEqual(['info web room: built in 1 ms']);
    const bad = recordingLog();
    expect(await buildWebRoom(bad.log, failing)).toBe(false);
    expect(bad.lines).toEqual([
      'warn the web room could not be built, the gateway serves the API only:\nvite: cannot parse src/main.tsx',
    ]);
  });

  it('`npm start` builds the room when needed and serves it: the page at / for a browser and at /room/{code}', async () => {
    const launched = await launch(join(scratch, 'data'));
    try {
      expect(launched.output.some((l) => /web room: (built|up to date)/.test(l))).toBe(true);
      const page = readFileSync(join(import.meta.dirname, '..', '..', 'web', 'dist', 'index.html'), 'utf8');
      for (const [path, accept] of [
        ['/', BROWSER_ACCEPT],
        ['/room/ABC123', '*/*'],
      ]) {
        const res = await fetch(launched.url + path, { headers: { accept: accept! } });
        expect(res.status).toBe(200);
        expect(await res.text()).toBe(page);
      }
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(page)![1]!;
      const asset = await fetch(launched.url + script);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toContain('immutable');
      const welcome = await fetch(launched.url + '/', { headers: { accept: '*/*' } });
      expect(await welcome.json()).toMatchObject({ success: true, docs: '/docs' });
    } finally {
      await launched.stop();
    }
  }, 120_000);
});
