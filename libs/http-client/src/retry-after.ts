/**
 * The wait a `Retry-After` header asks for, in milliseconds: delay-seconds (`120`, a fraction read
 * too) or an HTTP date (a date already past asks for none: 0). Undefined when the header is absent or
 * says nothing usable. A caller bounds it as its own patience requires.
 */
export function retryAfterMs(header: unknown, now = Date.now()): number | undefined {
  if (header === undefined || header === null) return undefined;
  const value = String(Array.isArray(header) ? header[0] : header).trim();
  if (!value) return undefined;
  // A date names its day or month in letters: anything else (`-5`, which Date.parse reads as 2001) is none.
  const ms = /^\d+(\.\d+)?$/.test(value)
    ? Number(value) * 1_000
    : /[a-z]/i.test(value)
      ? Date.parse(value) - now
      : Number.NaN;
  return Number.isFinite(ms) ? Math.max(0, ms) : undefined;
}
