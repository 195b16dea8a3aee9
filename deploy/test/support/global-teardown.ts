import type { TestServers } from './test-servers.ts';

/** Stops the servers the global setup started (none when it found them running). */
export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __testServers?: TestServers }).__testServers?.stop();
}
