/**
 * Waiting for work with a deadline. The work is not stopped when the deadline passes (what it gives
 * then is dropped), and the timer is cleared as soon as either comes first.
 */
function race<T>(
  ms: number,
  work: Promise<T>,
  late: (resolve: (v: T) => void, reject: (e: unknown) => void) => void,
) {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => late(resolve, reject), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** What `work` gives, or `fallback` once `ms` have passed without it: for work an answer can do without. */
export const atMost = <T>(ms: number, work: Promise<T>, fallback: T): Promise<T> =>
  race(ms, work, (resolve) => resolve(fallback));

/** What `work` gives, or the error `late` makes once `ms` have passed without it. */
export const within = <T>(ms: number, work: Promise<T>, late: () => Error): Promise<T> =>
  race(ms, work, (_resolve, reject) => reject(late()));
