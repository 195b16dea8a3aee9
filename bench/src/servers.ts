import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Runs a benchmark server script in its own process; resolves once it prints `{"port": n}`. */
export async function spawnServer(
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<{ port: number; url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  const { port } = JSON.parse(line) as { port: number };
  return { port, url: `http://127.0.0.1:${port}`, child };
}
