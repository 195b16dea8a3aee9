import { cardNumber, cutText, headOf, storableText } from '@pp/contracts';
/** An issue of a tracker (or a CSV row) as a story-to-be: text already in markdown. */
export interface ExternalIssue {
  /** Stable within its source: the key of the import's idempotency. */
  externalId: string;
  title: string;
  description: string;
  acceptanceCriteria: string;
  url: string | null;
  labels: string[];
  /** The estimate the tracker has now, as text (null when none). */
  estimate: string | null;
}

/**
 * The limits of a story's text, and of an item import-confirm takes (its request schema says the
 * same): what a tracker holds beyond them is fitted, never refused, so an item previewed imports as shown.
 */
export const TITLE_MAX = 200;
export const TEXT_MAX = 10_000;
export const LABEL_MAX = 100;
export const LABELS_MAX = 50;
/** The longest card of a deck: a longer estimate cannot be one. */
export const ESTIMATE_MAX = 32;
/** The longest link an item carries: a longer one is no link a user follows. */
export const URL_MAX = 2_000;

/** A name cut at the last word boundary that fits (a single long word is cut within), with the mark. */
function cutAtWord(text: string, max: number) {
  if (text.length <= max) return text;
  const start = headOf(text, max - 1);
  const space = /\s/.test(text[max - 1]!) ? start.length : start.search(/\s\S*$/);
  return `${space > 0 ? start.slice(0, space).trimEnd() : start}…`;
}

/**
 * The issue as a story can hold it: a title of 1..200 characters, texts of at most 10,000. Labels
 * longer than 100 characters are cut at a word boundary and those beyond the first 50 left out (a
 * label names, it does not hold text); an estimate longer than 32 characters (a Notion select or
 * text property may hold any) cannot be a card, so it reads as no estimate rather than a cut one;
 * a url longer than 2,000 characters reads as none (a cut link leads nowhere). A text is never cut
 * within a character, and a tracker's NUL characters and half characters are not kept: the stories
 * unit, and a request sending the item back, refuse them.
 */
export function fitToStory(issue: ExternalIssue): ExternalIssue {
  const estimate = issue.estimate === null ? null : storableText(issue.estimate);
  const url = issue.url === null ? null : storableText(issue.url);
  return {
    ...issue,
    title: cutText(storableText(issue.title).trim() || `Untitled ${issue.externalId}`, TITLE_MAX),
    description: cutText(storableText(issue.description), TEXT_MAX),
    acceptanceCriteria: cutText(storableText(issue.acceptanceCriteria), TEXT_MAX),
    labels: issue.labels.slice(0, LABELS_MAX).map((l) => cutAtWord(storableText(l), LABEL_MAX)),
    estimate: estimate !== null && estimate.length > ESTIMATE_MAX ? null : estimate,
    url: url !== null && url.length > URL_MAX ? null : url,
  };
}

/** The estimate as trackers take it: a number when the card is one ("5", "0.5"), else the text ("M", "?", "0x10"). */
export const estimateValue = (finalEstimate: string): number | string =>
  cardNumber(finalEstimate) ?? finalEstimate;
