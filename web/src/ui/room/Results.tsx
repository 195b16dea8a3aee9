import type { RoomStory } from '../../api/types.ts';
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
        {story && `Votes revealed on “${story.title}”: consensus ${story.final_estimate ?? 'none'}.`}
      </p>
      {story && <Votes story={story} deck={deck} />}
    </>
  );
}

function Votes({ story, deck }: { story: RoomStory; deck: string[] }) {
  const votes = story.votes ?? [];
  return (
    <section class="panel results" role="region" aria-labelledby="results-title">
      <h2 id="results-title" data-story={story.id} tabIndex={-1}>
        Results: {story.title}
      </h2>
      <p class="consensus">
        Consensus <strong data-testid="consensus">{story.final_estimate ?? 'none'}</strong>
      </p>
      {votes.length === 0 ? (
        <p class="muted">No votes were cast.</p>
      ) : (
        <>
          <table class="votes">
            <caption class="sr-only">Votes of {story.title}</caption>
            <thead>
              <tr>
                <th scope="col">Who</th>
                <th scope="col">Vote</th>
              </tr>
            </thead>
            <tbody>
              {votes.map((v, i) => (
                <tr key={`${v.participant.id ?? 'x'}-${i}`}>
                  <td>{v.participant.name ?? 'Anonymous'}</td>
                  <td class={v.value === story.final_estimate ? 'agree' : ''}>{v.value}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <BarChart
            title="Votes per card"
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
