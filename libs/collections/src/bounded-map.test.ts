import { BoundedMap } from './bounded-map.ts';

describe('BoundedMap', () => {
  it('never holds more than its capacity: a new key forgets the entry set longest ago', () => {
    const m = new BoundedMap<string, number>(3);
    for (const [i, k] of ['a', 'b', 'c', 'd', 'e'].entries()) m.set(k, i);
    expect([...m.keys()]).toEqual(['c', 'd', 'e']);
    expect(m.get('a')).toBeUndefined();
    expect(m.get('e')).toBe(4);
  });

  it('setting a key it holds replaces the value and makes it the most recent, forgetting nothing', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('a', 1).set('b', 2).set('a', 3);
    expect([...m.entries()]).toEqual([
      ['b', 2],
      ['a', 3],
    ]);
    m.set('c', 4);
    expect([...m.keys()]).toEqual(['a', 'c']);
  });

  it('use keeps an entry as the most recent, get does not', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('a', 1).set('b', 2);
    expect(m.get('a')).toBe(1);
    m.set('c', 3);
    expect(m.has('a')).toBe(false);

    const n = new BoundedMap<string, number | null>(2);
    n.set('a', null).set('b', 2);
    expect(n.use('a')).toBeNull();
    expect(n.use('zz')).toBeUndefined();
    n.set('c', 3);
    expect([...n.keys()]).toEqual(['a', 'c']);
  });

  it('refuses a capacity that could hold nothing', () => {
    expect(() => new BoundedMap(0)).toThrow(RangeError);
    expect(() => new BoundedMap(1.5)).toThrow(RangeError);
  });

  it('tells onEvict of each entry forgotten for room, not of those deleted or replaced', () => {
    const evicted: Array<[string, number]> = [];
    const m = new BoundedMap<string, number>(2, (key, value) => evicted.push([key, value]));
    m.set('a', 1).set('b', 2).set('a', 3);
    m.delete('b');
    m.set('c', 4).set('d', 5);
    expect(evicted).toEqual([['a', 3]]);
    expect([...m.keys()]).toEqual(['c', 'd']);
  });
});
