import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { nodeBinary, repoRoot } from '../../src/launcher/units.ts';

export interface Launched {
  pid: number;
  /** The gateway's URL from the start banner. */
  url: string;
  /** Every line the launcher printed (its own and, prefixed, its children's). */
  output: string[];
  /** The exit code (or signal) of the launcher. */
  exited: Promise<number | string | null>;
  /** What a terminal's Ctrl-C does: SIGINT to the launcher's whole process group. */
  interrupt(): void;
  /** Ctrl-C, then whatever it takes, and waits for the launcher to end. */
  stop(): Promise<void>;
}

/**
 * `npm start` as a terminal runs it: `node deploy/src/launcher/main.ts` leading a process group of its
 * own, with no DATABASE_URL or NATS_URL, so that it starts its own PostgreSQL and NATS in `dataDir`
 * (on free ports when 5432 and 4222 are taken). Resolves once it prints its banner.
 */
export async function launch(dataDir: string, env: Record<string, string> = {}): Promise<Launched> {
  const child = spawn(nodeBinary(), [join(repoRoot, 'deploy', 'src', 'launcher', 'main.ts')], {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LAUNCHER_DATA_DIR: dataDir, ...env },
  });
  const output: string[] = [];
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  const banner = new Promise<string>((resolve, reject) => {
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream }).on('line', (line) => {
        output.push(line);
        const url = /Planning poker API: (http:\/\/\S+)/.exec(line)?.[1];
        if (url) resolve(url.replace('localhost', '127.0.0.1'));
      });
    void exited.then((how) => reject(new Error(`the launcher ended (${how}) before its banner`)));
    setTimeout(() => reject(new Error('no banner within 60 s')), 60_000).unref();
  });
  const interrupt = () => {
    try {
      process.kill(-child.pid!, 'SIGINT');
    } catch {
      // already gone
    }
  };
  const stop = async () => {
    interrupt();
    const late = setTimeout(() => interrupt(), 30_000); // a second Ctrl-C kills everything
    await exited;
    clearTimeout(late);
  };
  try {
    return { pid: child.pid!, url: await banner, output, exited, interrupt, stop };
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\n${output.slice(-40).join('\n')}`);
  }
}
