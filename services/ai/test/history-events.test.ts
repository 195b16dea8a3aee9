/**
 * The owners' history of revealed stories, kept from the story events it changes with: one durable per
 * type, a reveal kept as its event tells it (no call back to the stories unit), a reset or a deletion
 * removing it whatever order the events are handled in.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import type { EventData } from '@pp/contracts';
import { keepRevealedStory, removeFromHistory } from '../src/use-cases/keep-past-story.use-case.ts';
import type { AiContext } from '../src/use-cases/shared/context.ts';
import { startAiPlatform, until, type AiPlatform } from './support/ai-platform.ts';

describe('the history of revealed stories', () => {
  let h: AiPlatform;
  beforeAll(async () => {
    h = await startAiPlatform();
  });
  afterAll(() => h.stop());

  const kept = async (storyId: string) =>
    (await h.ai.runtime.db
      .fork()
      .getConnection()
      .execute(
        'select title, final_estimate, votes, terms, revealed_at from past_stories where story_id = ?',
        [storyId],
      )) as Array<{
      title: string;
      final_estimate: string | null;
      votes: string[];
      terms: Record<string, number>;
    }>;

  it('receives only the story events it handles, one durable each; the durable of all story events is retired', async () => {
    const jsm = await jetstreamManager(h.ai.runtime.nc);
    const filters: Record<string, string> = {};
    for await (const c of jsm.consumers.list(h.ai.runtime.bus.stream))
      if (c.name.startsWith('ai-')) filters[c.name] = c.config.filter_subject!;
    const prefix = h.ai.runtime.bus.prefix;
    expect(filters).toEqual({
      'ai-story-revealed': `${prefix}.story.revealed`,
      'ai-story-reset': `${prefix}.story.reset`,
      'ai-story-deleted': `${prefix}.story.deleted`,
      'ai-story-updated': `${prefix}.story.updated`,
    });
  });

  it('keeps a revealed story with its text from the event, and lets it go when it is reset', async () => {
    const owner = await h.signUp('Rowan');
    const s = await h.session(owner);
    const voter = await h.join(s.code, 'Voter');
    const id = await h.addStory(owner, s.code, {
      title: 'Invoice export',
      description: 'Accountants download spreadsheets',
      acceptance_criteria: 'Columns match the ledger',
    });
    expect(await h.voteAndReveal(owner, s.code, id, [voter], ['8'])).toBe('8');
    const [row] = await until(async () => ((await kept(id)).length ? kept(id) : undefined), 20_000);
    expect(row).toMatchObject({ title: 'Invoice export', final_estimate: '8', votes: ['8'] });
    // Terms of the description and acceptance criteria: the text came with the event.
    expect(Object.keys(row!.terms)).toEqual(expect.arrayContaining(['invoic', 'spreadsheet', 'ledger']));

    const reset = await h.client.post(`/stories/${id}/reset`, { token: owner });
    expect(reset.status).toBe(200);
    await until(async () => ((await kept(id)).length === 0 ? true : undefined), 20_000);
  });

  /** A context whose other units must not be asked: the event is all it needs. */
  const offline = (): AiContext => ({
    em: h.ai.runtime.db.fork(),
    sessions: {
      lookup: async (id: string) => ({ id, owner_id: 'owner-1' }),
    } as unknown as AiContext['sessions'],
    stories: {
      list: () => Promise.reject(new Error('the stories unit must not be asked')),
    },
    model: null,
    budgetPerHour: 0,
    logger: h.ai.runtime.logger,
  });
  const revealed = (storyId: string, at: string): EventData<'story.revealed'> => ({
    session_id: '6b0f7c1e-3a7e-4a53-9d55-1f7c2b8f0a10',
    session_code: 'ABCDEF',
    story: {
      id: storyId,
      title: 'Late reveal',
      status: 'revealed',
      position: 1,
      final_estimate: '5',
      revealed_at: at,
      votes: [{ participant: { id: 1, name: 'Ann' }, value: '5' }],
      description: 'Text',
      acceptance_criteria: '',
    },
    next_story_id: null,
  });

  it('never brings back a reveal older than a reset handled before it, and keeps a later one', async () => {
    const storyId = '6b0f7c1e-3a7e-4a53-9d55-1f7c2b8f0a11';
    const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, s)).toISOString();
    // The reset (at :02) is handled before the reveal it undid (at :01).
    await removeFromHistory(offline(), storyId, t(2));
    await keepRevealedStory(offline(), revealed(storyId, t(1)));
    expect(await kept(storyId)).toHaveLength(0);
    // A reveal after the reset is kept; the reset's event coming again does not remove it.
    await keepRevealedStory(offline(), revealed(storyId, t(3)));
    await removeFromHistory(offline(), storyId, t(2));
    expect(await kept(storyId)).toMatchObject([{ title: 'Late reveal', votes: ['5'] }]);
    // The same reveal handled twice keeps one row; a later reset removes it.
    await keepRevealedStory(offline(), revealed(storyId, t(3)));
    expect(await kept(storyId)).toHaveLength(1);
    await removeFromHistory(offline(), storyId, t(4));
    expect(await kept(storyId)).toHaveLength(0);
  });
});
