import type { SessionSnapshot } from '@pp/contracts';
import { saveSnapshot } from '../db/session.repository.ts';
import type { StoriesContext } from './shared/context.ts';

/** session.created / updated / archived / unarchived: the read model keeps the newest snapshot. */
export async function keepSessionSnapshot(ctx: Pick<StoriesContext, 'em'>, session: SessionSnapshot) {
  await saveSnapshot(ctx.em, session);
}
