import { terms } from './text.ts';

/** How often each term occurs in a story (title terms count twice: a title says what the story is about). */
export type TermCounts = Record<string, number>;

export function termCounts(story: {
  title: string;
  description?: string;
  acceptance_criteria?: string;
}): TermCounts {
  const counts: TermCounts = {};
  for (const t of terms(story.title)) counts[t] = (counts[t] ?? 0) + 2;
  for (const t of terms(`${story.description ?? ''}\n${story.acceptance_criteria ?? ''}`))
    counts[t] = (counts[t] ?? 0) + 1;
  return counts;
}

export interface Document<T> {
  item: T;
  counts: TermCounts;
}

/**
 * A collection of stories ready to compare with (built once, used for many questions): TF-IDF weights
 * (sublinear term frequency, smoothed inverse document frequency), each story's vector length, and for
 * each term the stories that have it, so a question touches only the stories sharing a term with it.
 */
export interface Corpus<T> {
  items: T[];
  idf: (term: string) => number;
  postings: Map<string, Array<[index: number, weight: number]>>;
  norms: Float64Array;
}

const tfWeight = (tf: number) => 1 + Math.log(tf);

export function buildCorpus<T>(documents: ReadonlyArray<Document<T>>): Corpus<T> {
  const df = new Map<string, number>();
  for (const d of documents) for (const t in d.counts) df.set(t, (df.get(t) ?? 0) + 1);
  const n = documents.length;
  const idfs = new Map<string, number>();
  for (const [t, f] of df) idfs.set(t, Math.log((n + 1) / (f + 1)) + 1);
  const unseen = Math.log(n + 1) + 1;
  const idf = (t: string) => idfs.get(t) ?? unseen;
  const postings = new Map<string, Array<[number, number]>>();
  const norms = new Float64Array(n);
  documents.forEach((d, index) => {
    let norm = 0;
    for (const t in d.counts) {
      const w = tfWeight(d.counts[t]!) * idf(t);
      norm += w * w;
      let list = postings.get(t);
      if (!list) postings.set(t, (list = []));
      list.push([index, w]);
    }
    norms[index] = Math.sqrt(norm);
  });
  return { items: documents.map((d) => d.item), idf, postings, norms };
}

/**
 * Cosine similarity of a story to each story of the corpus, and to a few `extra` ones weighed with the
 * corpus's frequencies (stories it does not hold yet): 1 for the same words in the same proportions, 0
 * for no shared term. The best `limit` with at least `threshold`, best first.
 */
export function mostSimilar<T>(
  query: TermCounts,
  corpus: Corpus<T>,
  options: { limit: number; threshold: number; extra?: ReadonlyArray<Document<T>> },
): Array<{ item: T; similarity: number }> {
  const q = Object.entries(query).map(([t, tf]) => [t, tfWeight(tf) * corpus.idf(t)] as const);
  const qNorm = Math.sqrt(q.reduce((s, [, w]) => s + w * w, 0));
  if (qNorm === 0) return [];
  const dots = new Map<number, number>();
  for (const [t, w] of q)
    for (const [index, dw] of corpus.postings.get(t) ?? []) dots.set(index, (dots.get(index) ?? 0) + w * dw);
  const scored: Array<{ item: T; similarity: number }> = [];
  for (const [index, dot] of dots)
    scored.push({ item: corpus.items[index]!, similarity: dot / (qNorm * corpus.norms[index]!) });
  for (const d of options.extra ?? []) {
    let dot = 0;
    let norm = 0;
    for (const t in d.counts) {
      const w = tfWeight(d.counts[t]!) * corpus.idf(t);
      norm += w * w;
      const qw = query[t] ? tfWeight(query[t]) * corpus.idf(t) : 0;
      dot += qw * w;
    }
    if (dot > 0) scored.push({ item: d.item, similarity: dot / (qNorm * Math.sqrt(norm)) });
  }
  return scored
    .filter((s) => s.similarity >= options.threshold)
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, options.limit);
}
