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

/** The limits of a story's text: longer tracker text is cut (with a mark), never refused. */
const TITLE_MAX = 200;
const TEXT_MAX = 10_000;

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** The issue as a story can hold it: a title of 1..200 characters, texts of at most 10,000. */
export function fitToStory(issue: ExternalIssue): ExternalIssue {
  return {
    ...issue,
    title: cut(issue.title.trim() || `Untitled ${issue.externalId}`, TITLE_MAX),
    description: cut(issue.description, TEXT_MAX),
    acceptanceCriteria: cut(issue.acceptanceCriteria, TEXT_MAX),
  };
}

/** The estimate as trackers take it: a number when the card is one ("5", "0.5"), else the text ("M", "?"). */
export function estimateValue(finalEstimate: string): number | string {
  const n = Number(finalEstimate);
  return finalEstimate.trim() !== '' && Number.isFinite(n) ? n : finalEstimate;
}
