import type { RoomStory } from '../../api/types.ts';
import { lang, t } from '../../i18n/i18n.ts';
import { figure, roundFigures } from '../../room/results.ts';
import { distribution } from '../../room/votes.ts';
import { BarChart } from '../common.tsx';

/** The heading of the results when they are those of this story. */
export function resultsHeadingOf(storyId: string) {
  const heading = document.getElementById('results-title');
  return heading?.dataset.story === storyId ? heading : null;
}

/** The last revealed story: its consensus, every vote and how they spread over the deck. */
export function Results({ story, deck }: { story: RoomStory | null; deck: string[] }) {
  return (
    <>
      {/* On the page before the first reveal: a live region added with its text is not read out. */}
      <p class="sr-only" role="status">
        {story && t().revealedOn(story.title, story.final_estimate ?? t().none)}
      </p>
      {story && <Votes story={story} deck={deck} />}
    </>
  );
}

/** Whether the system asks for less motion: then no celebration moves. */
const lessMotion = () =>
  typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;

/** The mean and median of the number cards, the agreement with the consensus and the spread. */
function Figures({ story, deck }: { story: RoomStory; deck: string[] }) {
  const f = roundFigures(
    deck,
    (story.votes ?? []).map((v) => v.value),
    story.final_estimate,
  );
  if (f.counted === 0) return null;
  const m = t();
  const n = (x: number | null) => (x === null ? '–' : figure(x, lang()));
  const rows: Array<[string, string, string]> = [
    ['mean', m.resultsMean, n(f.mean)],
    ['median', m.resultsMedian, n(f.median)],
    [
      'agreement',
      m.resultsAgreement,
      f.agreement === null
        ? '–'
        : `${Math.round(f.agreement * 100)} % (${m.resultsAgreementOf(f.agree, f.counted)})`,
    ],
    [
      'spread',
      m.resultsSpread,
      f.spread ? (f.spread.low === f.spread.high ? f.spread.low : `${f.spread.low} – ${f.spread.high}`) : '–',
    ],
  ];
  return (
    <>
      <dl class="figures">
        {rows.map(([id, label, value]) => (
          <div key={id}>
            <dt>{label}</dt>
            <dd data-testid={`figure-${id}`}>{value}</dd>
          </div>
        ))}
      </dl>
      {f.unanimous && (
        <p data-testid="all-agree">
          {lessMotion() ? (
            m.resultsAllAgree
          ) : (
            <span class="celebrate" data-testid="celebration">
              <span aria-hidden="true">🎉 </span>
              {m.resultsAllAgree}
            </span>
          )}
        </p>
      )}
    </>
  );
}

function Votes({ story, deck }: { story: RoomStory; deck: string[] }) {
  const votes = story.votes ?? [];
  const m = t();
  return (
    <section class="panel results" role="region" aria-labelledby="results-title">
      <h2 id="results-title" data-story={story.id} tabIndex={-1}>
        {m.resultsOf(story.title)}
      </h2>
      <p class="consensus">
        {m.consensus} <strong data-testid="consensus">{story.final_estimate ?? m.none}</strong>
      </p>
      <Figures story={story} deck={deck} />
      {votes.length === 0 ? (
        <p class="muted">{m.noVotesCast}</p>
      ) : (
        <>
          <table class="votes">
            <caption class="sr-only">{m.votesOf(story.title)}</caption>
            <thead>
              <tr>
                <th scope="col">{m.who}</th>
                <th scope="col">{m.vote}</th>
              </tr>
            </thead>
            <tbody>
              {votes.map((v, i) => (
                <tr key={`${v.participant.id ?? 'x'}-${i}`}>
                  <td>{v.participant.name ?? m.anonymous}</td>
                  <td class={v.value === story.final_estimate ? 'agree' : ''}>{v.value}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <BarChart
            title={m.votesPerCard}
            rows={distribution(
              deck,
              votes.map((v) => v.value),
            )}
          />
        </>
      )}
    </section>
  );
}
