import { z } from 'zod';
import { sessionSnapshot } from './events.ts';

/**
 * The voting round of a session has one owner, the sessions unit: which story is open for votes,
 * and whether its votes are sealed. The stories unit, which owns the backlog, sends it one round
 * command with every change of a session's stories that changes the round, inside the request that
 * makes the change and before committing it; so once the change answers 2xx, every lookup and vote
 * already sees it. A change that leaves the round as it was commits without one, unless an archive of
 * the session was asked (see archivingNotice).
 */

/** The story open for voting, as the public lookup shows it. */
export const roundStory = z.object({
  id: z.uuid(),
  title: z.string(),
  position: z.number().int(),
});
export type RoundStory = z.infer<typeof roundStory>;

/**
 * When a seal may happen: `always` (the owner reveals), `all_voted` (auto-reveal: only while the
 * session auto-reveals and every voting participant has voted) or `deadline_passed` (only while the
 * session's vote-by deadline is on and past) or `countdown_ended` (only while the round's countdown,
 * set to reveal at zero, is there and has reached zero). The sessions unit checks the condition on its
 * own current data, so a setting changed a moment ago is always the one that counts.
 */
export const sealCondition = z.enum(['always', 'all_voted', 'deadline_passed', 'countdown_ended']);
export type SealCondition = z.infer<typeof sealCondition>;

export const roundCommand = z.strictObject({
  /**
   * Strictly increasing per session (the stories unit takes the next one before it sends): a command
   * whose version is not above the last applied one changes nothing, so a retry is harmless and a
   * command overtaken by a newer one never undoes it.
   */
  version: z.number().int().positive(),
  /**
   * `change`: a change of the stories (refused while the session is archived); `resync`: the stories
   * unit restating the round after a change whose outcome it could not learn.
   */
  kind: z.enum(['change', 'resync']),
  /** The story open for voting after the change (its round open), or null for none. */
  current: roundStory.nullable(),
  /** Stories whose votes go and whose round opens again (a reset). */
  reset: z.array(z.uuid()).max(100).default([]),
  /** The story whose round is sealed (a reveal): its votes are handed over in the answer. */
  seal: z.object({ story_id: z.uuid(), when: sealCondition }).nullable().default(null),
  /** Stories deleted: their rounds and votes go. */
  forget: z.array(z.uuid()).max(100).default([]),
});
export type RoundCommand = z.input<typeof roundCommand>;
export type ParsedRoundCommand = z.output<typeof roundCommand>;

/** A sealed vote as the room sees it at reveal: always named. */
export const sealedVote = z.object({
  participant: z.object({ id: z.number().int(), name: z.string() }),
  value: z.string(),
});

export const roundAnswer = z.object({
  /** False when a newer command was applied already (or this one was, before a retry). */
  applied: z.boolean(),
  /** The session as it is now: the settings a change must go by (deck, names, status). */
  session: sessionSnapshot,
  /** The sealed round's votes, in the order they were first cast; null when no seal was asked. */
  votes: z.array(sealedVote).nullable(),
});
export type RoundAnswer = z.infer<typeof roundAnswer>;

/**
 * The sessions unit is about to archive a session: from now on, every change of its stories asks the
 * sessions unit, which refuses them once the archive is committed. `session` is the session as it is
 * before the archive (kept by the stories unit if it does not know it yet); `at` is the time the archive
 * will be stamped with: the session seen unarchived after it takes the changes back to the stories unit.
 */
export const archivingNotice = z.strictObject({
  session: sessionSnapshot,
  at: z.iso.datetime({ offset: true }),
});
export type ArchivingNotice = z.infer<typeof archivingNotice>;
