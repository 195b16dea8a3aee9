import { nextPending, positionsWithout, reorder, statusOfNewStory, type QueuedStory } from './story-queue.ts';

const queue: QueuedStory[] = [
  { id: 'a', status: 'revealed', position: 1 },
  { id: 'b', status: 'voting', position: 2 },
  { id: 'c', status: 'pending', position: 4 },
  { id: 'd', status: 'pending', position: 3 },
];

describe('the story queue', () => {
  it('the next story is the first pending one by position', () => {
    expect(nextPending(queue)?.id).toBe('d');
    expect(nextPending(queue, 'd')?.id).toBe('c');
    expect(nextPending(queue.filter((s) => s.status !== 'pending'))).toBeUndefined();
  });

  it('a new story is current only when no story is', () => {
    expect(statusOfNewStory([])).toBe('voting');
    expect(statusOfNewStory(queue)).toBe('pending');
    expect(statusOfNewStory([{ id: 'a', status: 'revealed', position: 1 }])).toBe('voting');
  });

  it('moving a story renumbers the queue 1..n and clamps the target', () => {
    const stories = ['a', 'b', 'c'].map((id, i) => ({ id, status: 'pending' as const, position: i + 1 }));
    expect([...reorder(stories, 'c', 1)]).toEqual([
      ['c', 1],
      ['a', 2],
      ['b', 3],
    ]);
    expect([...reorder(stories, 'a', 99)]).toEqual([
      ['b', 1],
      ['c', 2],
      ['a', 3],
    ]);
    expect([...reorder(stories, 'b', 2)]).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
  });

  it('after a story leaves, the ones behind it move up', () => {
    expect([...positionsWithout(queue, 'b')]).toEqual([
      ['a', 1],
      ['d', 2],
      ['c', 3],
    ]);
  });
});
