import { modelTasks } from '../../domain/model-tasks.ts';
import { suggestionSchemas, type Suggestion, type SuggestionKind } from '../../domain/suggestions.ts';
import { takeModelCall } from '../../db/model-budget.repository.ts';
import type { AiContext } from './context.ts';

export interface Answer<K extends SuggestionKind> {
  suggestions: Suggestion<K>;
  /** "builtin", or the model that answered. */
  provider: string;
  /** Why the built-in engine answered although a model is configured. */
  note?: string;
}

/**
 * The built-in answer as the kind's schema reads it, the one a model's answer must pass. The engine
 * builds its answers within the schema; one that breaks it is a defect of the engine, answered as
 * one (500, logged), never sent (nor taken as the caller's invalid data: a ZodError would be a 422).
 */
export function checkedBuiltin<K extends SuggestionKind>(kind: K, builtin: Suggestion<K>): Suggestion<K> {
  const checked = suggestionSchemas[kind].safeParse(builtin);
  if (checked.success) return checked.data as Suggestion<K>;
  const issues = checked.error.issues.map((i) => `${i.path.join('.') || '(answer)'}: ${i.message}`);
  throw new Error(`The built-in ${kind} answer breaks its schema: ${issues.slice(0, 5).join('; ')}`);
}

/**
 * The built-in engine's answer, or the model's when one is configured: the model gets the same facts
 * as data with the built-in answer as a first draft, within the user's hourly budget; either answer
 * counts only once it passes the kind's schema. On any failure of the model the built-in answer comes
 * back, with a note saying why.
 */
export async function answer<K extends SuggestionKind>(
  ctx: AiContext,
  request: { userId: string; kind: K; prompt?: string; count?: number; deck?: readonly string[] },
  engine: Suggestion<K>,
  data: Record<string, unknown>,
): Promise<Answer<K>> {
  const builtin = checkedBuiltin(request.kind, engine);
  if (!ctx.model) return { suggestions: builtin, provider: 'builtin' };
  if (!(await takeModelCall(ctx.em, request.userId, ctx.budgetPerHour)))
    return {
      suggestions: builtin,
      provider: 'builtin',
      note: `Your budget of ${ctx.budgetPerHour} model calls an hour is spent: this is the built-in engine's suggestion.`,
    };
  const task = modelTasks[request.kind];
  try {
    const reply = await ctx.model.ask({
      name: request.kind,
      instructions: task.instructions,
      schema: task.schema,
      input: {
        task: request.kind,
        guidance: request.prompt ?? null,
        count: request.count ?? null,
        ...data,
        builtin,
      },
    });
    const merged = task.merge(builtin, reply, { deck: request.deck ?? [], count: request.count });
    const suggestions = suggestionSchemas[request.kind].parse(merged) as Suggestion<K>;
    return { suggestions, provider: ctx.model.model };
  } catch (err) {
    ctx.logger.info(
      { kind: request.kind, err: { message: (err as Error)?.message?.slice(0, 200) } },
      'built-in answer instead of the model',
    );
    return {
      suggestions: builtin,
      provider: 'builtin',
      note: "The model did not give a usable answer in time: this is the built-in engine's suggestion.",
    };
  }
}
