/** Jest global setup: the PostgreSQL and NATS of the run (see test-servers.ts), for every test file. */
import { startTestServers, type TestServers } from './test-servers.ts';

export default async function globalSetup(): Promise<void> {
  const servers = await startTestServers();
  // Set before jest starts its workers, which inherit the environment.
  Object.assign(process.env, servers.env);
  (globalThis as { __testServers?: TestServers }).__testServers = servers;
}
