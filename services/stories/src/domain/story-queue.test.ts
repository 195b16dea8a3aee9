import {
  makeCurrent,
  nextPending,
  positionsWithout,
  reorder,
  statusOfNewStory,
  type QueuedStory,
} from './story-queue.ts';

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

describe('makeCurrent', () => {
  const at = new Date('2026-01-01T00:00:00Z');
  const now = new Date('2026-01-02T00:00:00Z');
  const story = (id: string, status: 'pending' | 'voting' | 'revealed') => ({
    id,
    status,
    position: 1,
    votingStartedAt: null as Date | null,
    updatedAt: at,
  });

  it('opens the story and sends the one that was current back to pending', () => {
    const a = story('a', 'voting');
    const b = story('b', 'pending');
    expect(makeCurrent([a, b], b, now)).toBe(a);
    expect(a).toMatchObject({ status: 'pending', updatedAt: now, votingStartedAt: null });
    expect(b).toMatchObject({ status: 'voting', updatedAt: now, votingStartedAt: now });
  });

  it('returns nothing when no other story was current', () => {
    const a = story('a', 'revealed');
    const b = story('b', 'voting');
    expect(makeCurrent([a, b], b, now)).toBeUndefined();
    expect(a.status).toBe('revealed');
    expect(b.votingStartedAt).toBe(now);
  });
});
