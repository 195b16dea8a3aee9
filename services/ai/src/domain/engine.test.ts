import { analyzeStory } from './analyze.ts';
import { acceptanceCriteria } from './criteria.ts';
import { scaleOf, snapToDeck, stepsBetween } from './deck.ts';
import { historyOf, suggestEstimate } from './estimate.ts';
import { estimationReport } from './report.ts';
import { termCounts } from './similarity.ts';
import { splitStory } from './split.ts';

const story = (title: string, description = '', acceptance_criteria = '') => ({
  id: 's1',
  title,
  description,
  acceptance_criteria,
});
const FIBONACCI = ['0', '0.5', '1', '2', '3', '5', '8', '13', '20', '40', '100', '?', 'coffee'];

describe('the built-in engine', () => {
  it('scores each missing part of a story, and a vague word, against its clarity', () => {
    const full = story(
      'Pay by card',
      'As a buyer, I want to pay by card, so that I can check out alone.',
      'Given a valid card, When I pay, Then I receive a receipt',
    );
    const noValue = story('Pay by card', 'As a buyer, I want to pay by card.', full.acceptance_criteria);
    const vague = story(
      'Pay by card',
      'As a buyer, I want to pay by card fast, so that I can check out alone.',
      full.acceptance_criteria,
    );
    const [a, b, c] = [full, noValue, vague].map((s) => analyzeStory(s).clarity_score);
    expect(a).toBe(100);
    expect(b).toBeLessThan(a!);
    expect(c).toBeLessThan(a!);
  });

  it('splits by the first pattern that applies', () => {
    expect(splitStory(story('Manage invoices')).stories.map((s) => s.title)).toEqual([
      'Create invoices',
      'View invoices',
      'Edit invoices',
      'Delete invoices',
    ]);
    expect(splitStory(story('Export reports as CSV, Excel and PDF')).rationale).toMatch(/data variations/);
    expect(
      splitStory(story('Onboarding', '1. enter my email\n2. confirm the code\n3. choose a plan')).stories,
    ).toHaveLength(3);
    const plain = splitStory(story('Upload an avatar'));
    expect(plain.rationale).toMatch(/happy and unhappy/);
    expect(plain.stories).toHaveLength(2);
  });

  it('always ends the criteria with a failure path, whatever the count', () => {
    const criteria = acceptanceCriteria(
      story('Upload a document', 'As an editor, I want to upload a document.'),
      2,
    ).acceptance_criteria;
    expect(criteria).toHaveLength(2);
    expect(criteria[1]).toMatch(/too large or in the wrong format.+nothing is added/);
  });

  it('snaps to the nearest card by ratio, and counts cards between estimates', () => {
    expect(snapToDeck(5, ['1', '2', '4', '8', '16'])).toBe('4');
    expect(snapToDeck(11, FIBONACCI)).toBe('13');
    expect(snapToDeck(1.4, ['XS', 'S', 'M', 'L', 'XL'])).toBe('S');
    expect(stepsBetween('2', '13', FIBONACCI)).toBe(4);
    // A half reads as one, alone or after a whole number; a hex-looking card is a label.
    expect(scaleOf('1½', ['½', '1', '1½', '2'])).toBe(1.5);
    expect(scaleOf('½', ['½', '1', '1½', '2'])).toBe(0.5);
    expect(scaleOf('0x10', ['1', '2', '0x10'])).toBe(2);
  });

  it('suggests the similarity-weighted middle of similar past estimates', () => {
    const past = (id: string, title: string, estimate: string) => ({
      item: { story_id: id, title, final_estimate: estimate },
      counts: termCounts({ title }),
    });
    // Two kept in the built corpus, one not yet (revealed a moment ago), and the story itself.
    const history = historyOf(
      [past('a', 'Export invoices to PDF', '5'), past('c', 'Dark mode for the reader', '2')],
      [past('b', 'Export monthly invoices to PDF', '8'), past('s1', 'Export an invoice to PDF', '1')],
    );
    const result = suggestEstimate(story('Export an invoice to PDF'), history, FIBONACCI);
    expect(result.similar_stories.map((s) => s.story_id)).toEqual(['a', 'b']);
    expect(['5', '8']).toContain(result.suggested_estimate);
    expect(result.confidence).toBeGreaterThan(0);
  });

  it('finds outlying votes and a wide spread in the report', () => {
    const report = estimationReport(
      'session',
      [
        { id: 'x', title: 'Wide', status: 'revealed', final_estimate: '5', votes: ['2', '5', '5', '20'] },
        { id: 'y', title: 'Left', status: 'voting', final_estimate: null, votes: [] },
      ],
      FIBONACCI,
    );
    expect(report.outliers.map((o) => o.vote)).toEqual(['2', '20']);
    expect(report.agreement.wide_spread).toBe(1);
    expect(report.recommendations[0]).toMatch(/Split or clarify "Wide"/);
    expect(report.totals).toMatchObject({ stories: 2, revealed: 1, points: 5 });
  });
});
