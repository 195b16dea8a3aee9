/** Polls until the probe gives a truthy value (returned), or fails after the timeout. */
export async function until<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Waits until `marginMs` after a moment a test set (a deadline, an expiry), however long the steps
 * before took: a fixed pause is too short on a busy machine and needlessly long on a quiet one.
 */
export async function pastMoment(moment: Date | string, marginMs: number): Promise<void> {
  const at = typeof moment === 'string' ? Date.parse(moment) : moment.getTime();
  await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now()) + marginMs));
}
