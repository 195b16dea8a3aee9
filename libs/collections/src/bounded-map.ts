/**
 * A Map that holds at most `capacity` entries, for what a process remembers to save a query or a
 * computation: setting a new key when it is full forgets the entry set or used longest ago. `get`
 * reads without changing that order; `use` reads and keeps the entry as the most recent (so the
 * entries read most often stay). `onEvict` hears of each entry forgotten for room (not of those
 * deleted), for what must be let go of with it: a timer, an index.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  readonly capacity: number;
  private readonly onEvict?: (key: K, value: V) => void;

  constructor(capacity: number, onEvict?: (key: K, value: V) => void) {
    super();
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError('capacity must be a positive integer');
    this.capacity = capacity;
    this.onEvict = onEvict;
  }

  override set(key: K, value: V): this {
    if (this.has(key)) this.delete(key);
    else if (this.size >= this.capacity) {
      const [oldest, forgotten] = this.entries().next().value as [K, V];
      this.delete(oldest);
      this.onEvict?.(oldest, forgotten);
    }
    return super.set(key, value);
  }

  /** The entry's value, now the most recent entry; undefined when there is none. */
  use(key: K): V | undefined {
    if (!this.has(key)) return undefined;
    const value = super.get(key) as V;
    this.set(key, value);
    return value;
  }
}
