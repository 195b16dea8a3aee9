import { createHash } from 'node:crypto';

/**
 * The id of the story an external issue becomes in a session: the same session, source and external id
 * always give the same id, so an import retried (or repeated) adds nothing the stories unit already has.
 */
export function importedStoryId(sessionId: string, source: string, externalId: string): string {
  const h = createHash('sha256').update(`${sessionId}\n${source}\n${externalId}`).digest('hex');
  // the layout of a name-based UUID (version 5, RFC variant)
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Whether a story may have come from an import: every imported story's id is name-based (version 5,
 * from `importedStoryId`), and the stories unit makes its own stories' ids at random (version 4). Only
 * a story that may have been imported is looked up on its reveal; another unit's choice of ids can
 * cost a look-up that finds nothing, never a sync.
 */
export const mayBeImported = (storyId: string): boolean => storyId[14] === '5';

/** Stories sent to the stories unit in batches of at most 100, and at most ~200 kB of JSON each. */
export function batches<T>(items: T[], maxCount = 100, maxBytes = 200_000): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = JSON.stringify(item).length;
    if (current.length > 0 && (current.length >= maxCount || bytes + size > maxBytes)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}
