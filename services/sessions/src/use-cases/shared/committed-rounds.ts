import { BoundedMap } from '@pp/collections';

/**
 * What this replica has seen the stories unit commit, per session: the round version of its latest
 * committed change. The stories unit's events go out only after their change is committed, and those
 * of a change of the stories carry its round version; the live feed hands every one to this replica.
 * A round a change opened (unconfirmed at that change's version) takes votes once a change of that
 * version or a later one is committed there, so a version seen here confirms it without asking, as
 * the stories unit's answer would. Bounded: the sessions least recently heard of go first (a vote then
 * asks the stories unit, as after a restart).
 */
export class CommittedRounds {
  private readonly versions: BoundedMap<string, number>;
  /** Changes whose round this replica applied, per session, until it sees them committed. */
  private readonly applied: BoundedMap<string, number>;
  private readonly waiting = new Map<string, Set<{ version: number; done: () => void }>>();

  constructor(max = 10_000) {
    this.versions = new BoundedMap(max);
    this.applied = new BoundedMap(max);
  }

  /**
   * This replica applied the round of the change of `version` in the session (the stories unit
   * commits it next): a vote with a scene read before it waits for it to be seen committed (settled).
   */
  appliedRound(sessionId: string, version: number): void {
    if ((this.through(sessionId) ?? -1) >= version) return;
    if ((this.applied.get(sessionId) ?? -1) < version) this.applied.set(sessionId, version);
  }

  /**
   * Waits (at most `ms`) until the last change whose round this replica applied in the session is
   * seen committed; at once when there is none. A vote on a scene read before that change would find
   * the round it opened unconfirmed and try again: it waits first, and writes once. Waited for once:
   * a change the stories unit could not commit is not waited for again (its round is stated again).
   * Undefined when there is nothing to wait for (a vote's usual case: no promise to await).
   */
  settled(sessionId: string, ms: number): Promise<void> | undefined {
    const version = this.applied.get(sessionId);
    if (version === undefined) return undefined;
    return this.seen(sessionId, version, ms).then(() => {
      if (this.applied.get(sessionId) === version) this.applied.delete(sessionId);
    });
  }

  /** The stories unit committed the change of `version` in the session (or one after it). */
  committed(sessionId: string, version: number): void {
    const known = this.versions.get(sessionId);
    if (known !== undefined && known >= version) return;
    this.versions.set(sessionId, version);
    const applied = this.applied.get(sessionId);
    if (applied !== undefined && applied <= version) this.applied.delete(sessionId);
    for (const waiter of this.waiting.get(sessionId) ?? []) if (waiter.version <= version) waiter.done();
  }

  /** The latest version seen committed in the session, if any. */
  through(sessionId: string): number | undefined {
    return this.versions.get(sessionId);
  }

  /**
   * Whether a change of `version` or later is seen committed in the session within `ms` (at once when
   * it is already): the change's events are on their way when its answer reaches a client.
   */
  async seen(sessionId: string, version: number, ms: number): Promise<boolean> {
    if ((this.through(sessionId) ?? -1) >= version) return true;
    if (ms <= 0) return false;
    const line = this.waiting.get(sessionId) ?? new Set();
    this.waiting.set(sessionId, line);
    let timer: NodeJS.Timeout | undefined;
    let waiter!: { version: number; done: () => void };
    const reached = await new Promise<boolean>((resolve) => {
      waiter = { version, done: () => resolve(true) };
      line.add(waiter);
      timer = setTimeout(() => resolve(false), ms);
    });
    clearTimeout(timer);
    line.delete(waiter);
    if (line.size === 0) this.waiting.delete(sessionId);
    return reached;
  }
}
