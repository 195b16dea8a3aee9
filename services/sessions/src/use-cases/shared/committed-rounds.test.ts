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

describe('votes after a change whose round this replica applied', () => {
  it('wait for the change to be seen committed, once, and not for what is seen already', async () => {
    const seen = new CommittedRounds();
    seen.committed('s1', 3);
    seen.appliedRound('s1', 3); // seen committed already: nothing to wait for
    expect(seen.settled('s1', 1_000)).toBeUndefined();
    expect(seen.settled('s2', 1_000)).toBeUndefined(); // nothing applied there

    seen.appliedRound('s1', 5);
    const settling = seen.settled('s1', 1_000);
    expect(settling).toBeInstanceOf(Promise);
    let settled = false;
    void settling!.then(() => (settled = true));
    seen.committed('s1', 4); // an earlier change: still waiting
    await new Promise((r) => setTimeout(r, 20));
    expect(settled).toBe(false);
    seen.committed('s1', 5);
    await settling;
    expect(settled).toBe(true);

    // A change the stories unit never commits is waited for once, for the time given.
    seen.appliedRound('s1', 7);
    const started = Date.now();
    await seen.settled('s1', 60);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    expect(seen.settled('s1', 1_000)).toBeUndefined();
  });
});
