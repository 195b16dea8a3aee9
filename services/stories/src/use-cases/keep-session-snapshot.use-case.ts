import type { ArchivingNotice, SessionSnapshot } from '@pp/contracts';
import { clearArchiving, markArchiving } from '../db/round-version.repository.ts';
import { saveSnapshot } from '../db/session.repository.ts';
import type { StoriesContext } from './shared/context.ts';

/** session.created / updated / archived: the read model keeps the newest snapshot. */
export async function keepSessionSnapshot(ctx: Pick<StoriesContext, 'em'>, session: SessionSnapshot) {
  await saveSnapshot(ctx.em, session);
}

/** session.unarchived: the newest snapshot, and the changes of its stories no longer held by an archive asked before. */
export async function keepUnarchivedSession(ctx: Pick<StoriesContext, 'em'>, session: SessionSnapshot) {
  await saveSnapshot(ctx.em, session);
  await clearArchiving(ctx.em, session.id, session.updated_at);
}

/**
 * The sessions unit is about to archive the session: the read model knows the session (kept from the
 * notice if its event has not come yet), and every change of its stories asks the sessions unit until
 * the session is seen unarchived after it. Asked again, the same.
 */
export async function keepArchivingSession(ctx: Pick<StoriesContext, 'em'>, notice: ArchivingNotice) {
  await saveSnapshot(ctx.em, notice.session);
  await markArchiving(ctx.em, notice.session.id, notice.at);
}
