/**
 * Jest global setup: when DATABASE_URL / NATS_URL are not set and a Docker engine answers, start
 * PostgreSQL and NATS in containers; otherwise the tests use the machine's own services.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.DATABASE_URL && process.env.NATS_URL) return;
  let runtime: unknown;
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    runtime = await getContainerRuntimeClient();
  } catch {
    return; // no Docker engine: local services (127.0.0.1:5432 and :4222)
  }
  if (!runtime) return;
  const { GenericContainer, Wait } = await import('testcontainers');
  const started: Array<{ stop: () => Promise<unknown> }> = [];
  if (!process.env.DATABASE_URL) {
    const pg = await new GenericContainer('postgres:16-alpine')
      .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .start();
    started.push(pg);
    process.env.DATABASE_URL = `postgres://postgres@${pg.getHost()}:${pg.getMappedPort(5432)}/postgres`;
  }
  if (!process.env.NATS_URL) {
    const nats = await new GenericContainer('nats:2.10-alpine')
      .withCommand(['-js'])
      .withExposedPorts(4222)
      .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
      .start();
    started.push(nats);
    process.env.NATS_URL = `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`;
  }
  (globalThis as { __containers?: typeof started }).__containers = started;
}
