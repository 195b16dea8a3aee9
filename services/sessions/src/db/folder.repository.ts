import { LockMode, type EntityManager } from '@pp/db';
import { Folder, Session } from './entities/index.ts';

/** A folder of this owner, or null (another owner's folder is as unknown as a missing one). */
export const findOwnFolder = (em: EntityManager, ownerId: string, id: number) =>
  em.findOne(Folder, { id, ownerId });

/** One page of the owner's folders by name, and how many there are. */
export const listFolders = (em: EntityManager, ownerId: string, page: number, perPage: number) =>
  em.findAndCount(
    Folder,
    { ownerId },
    { orderBy: { name: 'asc', id: 'asc' }, limit: perPage, offset: (page - 1) * perPage },
  );

/**
 * The folder locked for its deletion (sessions being put in it wait, then find it gone) with the
 * sessions in it, or null when the owner has no such folder.
 */
export async function lockFolderWithSessions(tx: EntityManager, ownerId: string, id: number) {
  const folder = await tx.findOne(Folder, { id, ownerId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!folder) return null;
  return { folder, sessions: await tx.find(Session, { folderId: id }) };
}
