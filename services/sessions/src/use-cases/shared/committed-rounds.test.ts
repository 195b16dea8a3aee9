import { CommittedRounds } from './committed-rounds.ts';

describe('the changes of the stories a replica has seen committed', () => {
  it('keeps the latest version of each session', () => {
    const seen = new CommittedRounds();
    seen.committed('s1', 4);
    seen.committed('s1', 3); // an older change's event, late
    seen.committed('s2', 1);
    expect([seen.through('s1'), seen.through('s2'), seen.through('s3')]).toEqual([4, 1, undefined]);
  });

  it('answers a vote at once for a version seen, when its change is seen within the wait, and no otherwise', async () => {
    const seen = new CommittedRounds();
    seen.committed('s1', 5);
    await expect(seen.seen('s1', 5, 0)).resolves.toBe(true);
    await expect(seen.seen('s1', 4, 0)).resolves.toBe(true);
    await expect(seen.seen('s1', 6, 0)).resolves.toBe(false); // not waited for

    const waiting = seen.seen('s1', 7, 1_000);
    seen.committed('s1', 6); // not yet
    seen.committed('s2', 9); // another session
    setTimeout(() => seen.committed('s1', 7), 20);
    await expect(waiting).resolves.toBe(true);

    const started = Date.now();
    await expect(seen.seen('s1', 8, 50)).resolves.toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('forgets the sessions least recently heard of past its bound', () => {
    const seen = new CommittedRounds(2);
    seen.committed('a', 1);
    seen.committed('b', 1);
    seen.committed('c', 1);
    expect([seen.through('a'), seen.through('b'), seen.through('c')]).toEqual([undefined, 1, 1]);
  });
});
