import { chunksOf } from './chunks.ts';

describe('chunksOf', () => {
  it('keeps the order in runs of at most the size, the last one shorter', () => {
    expect(chunksOf([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunksOf([1, 2], 5)).toEqual([[1, 2]]);
    expect(chunksOf([], 3)).toEqual([]);
    expect(() => chunksOf([1], 0)).toThrow(RangeError);
  });
});
