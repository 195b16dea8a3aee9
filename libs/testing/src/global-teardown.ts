export default async function globalTeardown(): Promise<void> {
  const started =
    (globalThis as { __containers?: Array<{ stop: () => Promise<unknown> }> }).__containers ?? [];
  await Promise.all(started.map((c) => c.stop()));
}
