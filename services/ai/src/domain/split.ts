import { criteriaText } from './criteria.ts';
import { likelyBenefit } from './improve.ts';
import {
  actionsOf,
  isUmbrella,
  QUOTED,
  readStory,
  type Action,
  type StoryReading,
  type StoryText,
} from './story-form.ts';
import { LIMITS } from './suggestions.ts';
import { article, capitalize, clip, decapitalize, listItems, quote, sentences, titleKey } from './text.ts';

export interface DraftStory {
  title: string;
  description: string;
  acceptance_criteria: string;
}

export interface Split {
  story_id: string;
  stories: DraftStory[];
  rationale: string;
}

interface Part {
  goal: string;
  detail?: string;
}

const STEP_MARKER = /\b(?:first(?:ly)?|then|after that|afterwards|next|finally|lastly)\b[,:]?\s*/i;
const VARIATIONS =
  /^(.*?\b(?:as|to|in|into|via|by|through|for|from|with|on)\s+)((?:[\w.-]+(?:\s[\w.-]+)?\s*,\s*)*[\w.-]+(?:\s[\w.-]+)?\s*,?\s+(?:and|or)\s+[\w.-]+(?:\s[\w.-]+)?)$/i;

/** "manage invoices": one story per operation a team builds and ships on its own. */
const crud = (a: Action): Part[] =>
  ['create', 'view', 'edit', 'delete'].map((verb) => ({ goal: `${verb} ${a.object || 'items'}` }));

/** The steps of a workflow the description walks through (a numbered list, or first / then / finally). */
function workflowSteps(story: StoryText): string[] {
  const numbered = story.description.split('\n').filter((line) => /^\s*(?:\d+[.)]|[-*•])\s+/.test(line));
  if (numbered.length >= 2) return listItems(numbered.join('\n'));
  const flow = sentences(story.description)
    .flatMap((s) => s.split(/,?\s*\b(?=then\b|after that\b|afterwards\b|finally\b|lastly\b)/i))
    .filter((s) => STEP_MARKER.test(s));
  return flow.length >= 2 ? flow.map((s) => s.replace(STEP_MARKER, '').replace(/[.\s]+$/, '')) : [];
}

/** The values of a list at the end of an action ("as CSV, Excel and PDF"), each a story of its own. */
function dataVariations(a: Action): Part[] {
  const m = VARIATIONS.exec(a.phrase);
  if (!m) return [];
  const values = m[2]!.split(/\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+/).filter(Boolean);
  return values.length >= 2 ? values.map((v) => ({ goal: `${m[1]}${v}` })) : [];
}

/** How long a story's title gets: a longer goal is cut at a word boundary. */
const TITLE = 120;
/** How much of the sentence stating a business rule a story split off by it quotes. */
const RULE = 300;

const titleOf = (goal: string) => clip(capitalize(goal.replace(/[.\s]+$/, '')), TITLE);

function draft(reading: StoryReading, role: string, part: Part): DraftStory {
  const action = actionsOf(part.goal)[0];
  const benefit = reading.benefit ?? likelyBenefit(action) ?? '[the value it brings, to be confirmed]';
  const goal = part.goal.replace(/[.\s]+$/, '');
  const form = `As ${article(role)} ${role}, I want to ${decapitalize(goal)}, so that ${benefit.replace(/[.\s]+$/, '')}.`;
  const description = part.detail ? `${form}\n\n${part.detail}` : form;
  return {
    title: titleOf(goal),
    description,
    acceptance_criteria: criteriaText({ title: goal, description }),
  };
}

/** Each part once, by its title (a feature or step named twice is one story); a part with no title goes. */
function distinct(parts: Part[]): Part[] {
  const seen = new Set<string>();
  return parts.filter((p) => {
    const key = titleKey(titleOf(p.goal));
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Splits a story by the first pattern that applies, in the order practitioners try them: features
 * joined by conjunctions, an umbrella operation (CRUD), the steps of a workflow, business-rule
 * variations, data variations, and at last the happy path apart from the unhappy ones. A pattern
 * applies when it gives two different stories at least; at most 12 are drafted, the rationale naming
 * the ones left for later. Every story keeps the role and value, so each one is worth shipping on its
 * own.
 */
export function splitStory(story: StoryText): Split {
  const reading = readStory(story);
  const role = reading.role ?? reading.impliedRole ?? 'user';
  const main = reading.actions[0] ?? actionsOf(`use ${decapitalize(story.title)}`)[0]!;
  const { min, max } = LIMITS.splitStories;
  const result = (parts: Part[], rationale: string): Split => {
    const kept = parts.slice(0, max);
    const left = parts.slice(max).map((p) => p.goal);
    return {
      story_id: story.id,
      stories: kept.map((p) => draft(reading, role, p)),
      rationale:
        left.length === 0
          ? rationale
          : `${rationale} The first ${kept.length} are drafted here; the other ${left.length} (${quote(left)}) can follow the same way.`,
    };
  };

  const features = distinct(reading.actions.map((a) => ({ goal: a.phrase }))).map((p) => p.goal);
  if (features.length >= min) {
    const parts = distinct(reading.actions.flatMap((a) => (isUmbrella(a) ? crud(a) : [{ goal: a.phrase }])));
    return result(
      parts,
      `Split by conjunctions: the story joins ${features.length} features (${quote(features, 5)}) that can be built, estimated and shipped one at a time.`,
    );
  }
  if (isUmbrella(main))
    return result(
      distinct(crud(main)),
      `Split by operations (CRUD): "${main.phrase}" covers creating, viewing, editing and deleting, each valuable on its own; viewing often ships first.`,
    );
  const steps = distinct(workflowSteps(story).map((s) => ({ goal: clip(s, QUOTED.phrase) })));
  if (steps.length >= min)
    return result(
      steps,
      `Split by workflow steps: the description walks through ${steps.length} steps; each step can be delivered in order, the first one already usable.`,
    );
  const ruleOf = (c: string) =>
    sentences(story.description).find((s) => s.toLowerCase().includes(c.toLowerCase()));
  const rules = distinct([
    { goal: main.phrase, detail: 'The simplest case first: the rules below come as stories of their own.' },
    ...reading.conditions.map((c) => ({
      goal: `${main.phrase} ${c}`,
      detail: `The rule: ${clip(ruleOf(c) ?? c, RULE)}`,
    })),
  ]);
  if (rules.length >= min)
    return result(
      rules,
      `Split by business rules: the plain case ships first, then each rule (${quote(reading.conditions, 5)}) as its own story.`,
    );
  const variations = distinct(dataVariations(main));
  if (variations.length >= min)
    return result(
      variations,
      `Split by data variations: "${main.phrase}" covers ${variations.length} variants; start with the most used one, the others follow the same path.`,
    );
  return result(
    [
      { goal: main.phrase, detail: 'The happy path only: valid input, everything available.' },
      {
        goal: `get clear feedback when I cannot ${main.phrase}`,
        detail: `The unhappy paths of "${main.phrase}": invalid or missing input, no permission, a service unavailable.`,
      },
    ],
    `Split by happy and unhappy paths: no conjunction, operation family, workflow, rule or data variation to split by, so the success path ships first and the error handling follows.`,
  );
}
