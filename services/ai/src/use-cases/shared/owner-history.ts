import type { StoryForUnits } from '@pp/contracts';
import { BoundedMap } from '@pp/collections';
import type { EntityManager } from '@pp/db';
import { historyOf, type History, type PastStory } from '../../domain/estimate.ts';
import { termCounts, type Document } from '../../domain/similarity.ts';
import { historyVersion, pastStoriesOf } from '../../db/past-story.repository.ts';
import { TERMS_VERSION } from './past-story.ts';

/**
 * What was built from an owner's history, by owner, while the history is unchanged (its version is
 * read on every question, so a change on any replica shows at once). The owners asked most recently
 * stay; a few dozen histories of thousands of stories take a few megabytes.
 */
const built = new BoundedMap<string, { version: string; history: History }>(64);

async function keptHistory(em: EntityManager, ownerId: string): Promise<History> {
  const version = await historyVersion(em, ownerId);
  const cached = built.use(ownerId);
  if (cached?.version === version) return cached.history;
  const rows = await pastStoriesOf(em, ownerId);
  const history = historyOf(
    rows.map((r) => ({
      item: { story_id: r.story_id, title: r.title, final_estimate: r.final_estimate },
      // Kept by an older tokenizer: only the title is at hand, which is still better than nothing.
      counts: r.terms_version === TERMS_VERSION ? r.terms : termCounts({ title: r.title }),
    })),
  );
  built.set(ownerId, { version, history });
  return history;
}

/**
 * The owner's revealed stories: the read model kept from story.* events, plus the revealed stories of
 * the session at hand that it has not heard of yet (a reveal a moment ago), from the stories unit.
 */
export async function ownerHistory(
  ctx: { em: EntityManager },
  ownerId: string,
  sessionStories: readonly StoryForUnits[],
): Promise<History> {
  const kept = await keptHistory(ctx.em, ownerId);
  const known = new Set(kept.corpus.items.map((i) => i.story_id));
  const extra: Array<Document<PastStory>> = sessionStories
    .filter((s) => s.status === 'revealed' && !known.has(s.id))
    .map((s) => ({
      item: { story_id: s.id, title: s.title, final_estimate: s.final_estimate },
      counts: termCounts(s),
    }));
  return { corpus: kept.corpus, extra };
}
