import { within } from './deadline.ts';

/** How long work waits for its turn, and the error it gives up with then (having done nothing). */
export interface TurnWait {
  ms: number;
  late: () => Error;
}

/**
 * Work on one key takes turns in this process, in the order it came; work on other keys goes on
 * alongside. Waiting for a turn holds nothing but the key's later work: work that would otherwise
 * queue on a database row while holding a pooled connection waits here instead, with no connection.
 *
 * One instance per running service (it is state of the replica, not of the module: two replicas in
 * one process keep lines of their own, as two processes would).
 */
export class Turns {
  private readonly lines = new Map<string, Promise<void>>();

  private readonly wait: TurnWait;

  constructor(wait: TurnWait) {
    this.wait = wait;
  }

  /**
   * Runs `work` once the work on `key` queued before it is done. `waited` says whether there was any
   * (then what was read before may be stale). After the longest wait in the line it rejects with the
   * wait's error instead, and the work after it keeps its order.
   */
  async run<T>(key: string, work: (waited: boolean) => Promise<T>): Promise<T> {
    const before = this.lines.get(key);
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const last = before ? before.then(() => mine) : mine;
    this.lines.set(key, last);
    // The line goes once everything in it is done (work that gave up leaves the work before it there).
    void last.then(() => {
      if (this.lines.get(key) === last) this.lines.delete(key);
    });
    try {
      if (before) await within(this.wait.ms, before, this.wait.late);
      return await work(before !== undefined);
    } finally {
      done();
    }
  }

  /** How many keys have work under way or waiting. */
  get keysInLine(): number {
    return this.lines.size;
  }
}
