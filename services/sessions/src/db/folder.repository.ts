import { LockMode, type EntityManager } from '@pp/db';
import { Folder, Session } from './entities/index.ts';

/** A folder by id, whoever owns it (the caller checks the owner), or null. */
export const findFolder = (em: EntityManager, id: number) => em.findOne(Folder, { id });

/** One page of the owner's folders by name, and how many there are. */
export const listFolders = (em: EntityManager, ownerId: string, page: number, perPage: number) =>
  em.findAndCount(
    Folder,
    { ownerId },
    { orderBy: { name: 'asc', id: 'asc' }, limit: perPage, offset: (page - 1) * perPage },
  );

/**
 * The folder locked for its deletion (sessions being put in it wait, then find it gone), or null when
 * there is no such folder.
 */
export const lockFolder = (tx: EntityManager, id: number) =>
  tx.findOne(Folder, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });

/** The sessions in a folder. */
export const sessionsInFolder = (tx: EntityManager, id: number) => tx.find(Session, { folderId: id });
