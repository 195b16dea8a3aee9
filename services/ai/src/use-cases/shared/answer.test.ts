import { toAppError } from '@pp/http';
import { createLogger } from '@pp/logger';
import type { ModelClient } from '../../clients/model.client.ts';
import { splitStory } from '../../domain/split.ts';
import { answer } from './answer.ts';
import type { AiContext } from './context.ts';

const logger = createLogger({ name: 'ai-test', level: 'silent' });

/** What the built-in path needs of a context: no database, no other unit, no budget. */
const contextWith = (model: ModelClient | null) =>
  ({ model, budgetPerHour: 10, logger, em: {}, sessions: {}, stories: {} }) as unknown as AiContext;

const story = {
  id: 's1',
  title: 'Export reports',
  description: 'As a manager, I want to export reports and print reports, so that the team is informed.',
  acceptance_criteria: '',
};
const request = { userId: 'u1', kind: 'split-current-story' as const };

describe("the built-in answer passes the schema a model's answer must pass", () => {
  it('is sent as the schema reads it', async () => {
    const builtin = splitStory(story);
    const answered = await answer(contextWith(null), request, builtin, {});
    expect(answered).toEqual({ suggestions: builtin, provider: 'builtin' });
  });

  it("is never sent when it breaks the schema: an internal error (500), not the caller's invalid data (422)", async () => {
    const split = splitStory(story);
    const thirteen = { ...split, stories: Array.from({ length: 13 }, () => split.stories[0]!) };
    let asked = 0;
    const model: ModelClient = {
      model: 'fake',
      ask: async () => {
        asked += 1;
        throw new Error('not to be asked');
      },
    };
    for (const configured of [null, model]) {
      const failed = await answer(contextWith(configured), request, thirteen, {}).catch(
        (err: unknown) => err,
      );
      expect(failed).toBeInstanceOf(Error);
      expect((failed as Error).message).toMatch(
        /built-in split-current-story answer breaks its schema: stories/,
      );
      expect(toAppError(failed)).toBeUndefined();
    }
    expect(asked).toBe(0);
  });
});
