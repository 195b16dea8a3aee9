/**
 * The messages of one POST this server acts on. Being stateless, it can only ever see a cancellation
 * beside the request it names, in the same batch, and acting on it there would leave that request
 * without an answer: the POST, answered once every request of it has its answer, would wait until the
 * client gave up. The protocol lets a receiver ignore a cancellation it cannot act on in time, so the
 * cancellations of a batch are left out and its requests answered (a batch of nothing else stays as
 * it is: notifications only, accepted with 202).
 */
export function withoutCancellations(body: unknown): unknown {
  if (!Array.isArray(body)) return body;
  const kept = body.filter(
    (message) => (message as { method?: unknown } | null)?.method !== 'notifications/cancelled',
  );
  return kept.length > 0 ? kept : body;
}
