/**
 * What `work` gives, or `fallback` once `ms` have passed without it (the work goes on; what it gives
 * then is dropped). For a call to another unit that an answer can do without.
 */
export async function atMost<T>(ms: number, work: Promise<T>, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
