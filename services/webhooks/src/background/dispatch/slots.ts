/**
 * The attempts in flight in this replica: how many in all and per webhook, and who waits for none
 * to be left (a stop).
 */
export class Slots {
  private readonly perWebhook = new Map<string, number>();
  private waiting: Array<() => void> = [];
  private readonly perEndpoint: number;
  total = 0;

  constructor(perEndpoint: number) {
    this.perEndpoint = perEndpoint;
  }

  /** Counts an attempt of the webhook's; false when it is past the webhook's limit (it is not made). */
  take(webhookId: string): boolean {
    this.total++;
    const n = (this.perWebhook.get(webhookId) ?? 0) + 1;
    this.perWebhook.set(webhookId, n);
    return n <= this.perEndpoint;
  }

  /** Counts an attempt finished; answers how many of the webhook's are still in flight. */
  release(webhookId: string): number {
    this.total--;
    const left = (this.perWebhook.get(webhookId) ?? 1) - 1;
    if (left === 0) this.perWebhook.delete(webhookId);
    else this.perWebhook.set(webhookId, left);
    if (this.total === 0) for (const done of this.waiting.splice(0)) done();
    return left;
  }

  /** The webhooks with as many attempts in flight as allowed. */
  full(): string[] {
    return [...this.perWebhook].filter(([, n]) => n >= this.perEndpoint).map(([id]) => id);
  }

  has(webhookId: string): boolean {
    return this.perWebhook.has(webhookId);
  }

  /** Resolves once no attempt is in flight. */
  drained(): Promise<void> {
    return this.total === 0 ? Promise.resolve() : new Promise((resolve) => this.waiting.push(resolve));
  }
}
