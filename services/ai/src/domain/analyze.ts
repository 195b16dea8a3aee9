import { DEPENDENCY_PATTERN, OBSERVABLE_PATTERN, SOLUTION_PATTERN, VAGUE_TERMS } from './lexicon.ts';
import { readStory, type StoryReading, type StoryText } from './story-form.ts';
import { quote, words } from './text.ts';

export interface Issue {
  kind: string;
  message: string;
}

export interface Invest {
  independent: boolean;
  negotiable: boolean;
  valuable: boolean;
  estimable: boolean;
  small: boolean;
  testable: boolean;
}

export interface Analysis {
  story_id: string;
  clarity_score: number;
  issues: Issue[];
  questions: string[];
  invest: Invest;
}

/** The vague words of a text, each once, with the question that pins it down. */
export function vagueTerms(text: string): Array<{ word: string; question: string }> {
  const found = new Map<string, string>();
  for (const [pattern, word, question] of VAGUE_TERMS) if (pattern.test(text)) found.set(word, question);
  return [...found].map(([word, question]) => ({ word, question }));
}

/** A criterion someone can check: an observable outcome or a Given/When/Then, and nothing vague in it. */
export const isTestable = (criterion: string) =>
  OBSERVABLE_PATTERN.test(criterion) && vagueTerms(criterion).length === 0 && words(criterion).length >= 3;

/**
 * Clarity from concrete signals, each with its weight: the parts of the user-story form, vague words,
 * acceptance criteria (missing or not checkable), several features joined into one, and length. Starts
 * at 100 and loses points per problem found; INVEST flags and the questions a team would ask follow
 * from the same findings.
 */
export function analyzeStory(story: StoryText): Analysis {
  const reading = readStory(story);
  const text = `${story.title}\n${story.description}`;
  const issues: Issue[] = [];
  const questions: string[] = [];
  let penalty = 0;
  const flag = (kind: string, points: number, message: string, question?: string) => {
    issues.push({ kind, message });
    penalty += points;
    if (question) questions.push(question);
  };

  if (!reading.role)
    flag(
      'missing_role',
      15,
      'No user or role is named ("As a …").',
      'Who is this for: which user or role needs it?',
    );
  if (!reading.goal)
    flag(
      'missing_goal',
      15,
      'The story does not say what the user wants to do ("I want to …").',
      'What should the user be able to do when this is done?',
    );
  if (!reading.benefit)
    flag(
      'missing_benefit',
      10,
      'The value is not stated ("so that …").',
      'Why does the user need it: what do they gain?',
    );

  const vague = vagueTerms(`${text}\n${story.acceptance_criteria}`);
  if (vague.length > 0) {
    flag(
      'vague_wording',
      Math.min(20, 5 * vague.length),
      `Vague wording: ${vague.map((v) => `"${v.word}"`).join(', ')}.`,
    );
    questions.push(...vague.map((v) => v.question));
  }

  const testable = reading.criteria.filter(isTestable);
  if (reading.criteria.length === 0)
    flag(
      'missing_acceptance_criteria',
      20,
      'There are no acceptance criteria.',
      'How will we know it is done: what must be true when it is accepted?',
    );
  else if (testable.length < reading.criteria.length)
    flag(
      'untestable_criteria',
      Math.min(15, 5 * (reading.criteria.length - testable.length)),
      `${reading.criteria.length - testable.length} of ${reading.criteria.length} acceptance criteria cannot be checked as written (no observable outcome, or vague).`,
      'What observable result would show each criterion is met?',
    );

  if (reading.actions.length > 1) {
    const names = quote(
      reading.actions.map((a) => a.phrase),
      5,
    );
    flag(
      'multiple_features',
      Math.min(20, 10 * (reading.actions.length - 1)),
      `It joins ${reading.actions.length} features: ${names}.`,
      `Could ${reading.actions
        .map((a) => `"${a.phrase}"`)
        .slice(0, 2)
        .join(' and ')} be delivered and estimated separately?`,
    );
  }

  const length = words(`${story.description} ${story.acceptance_criteria}`).length;
  if (length < 8)
    flag(
      'too_short',
      10,
      'The description is too short to estimate from.',
      'What else does the team need to know to estimate it?',
    );
  else if (length > 600)
    flag('too_long', 10, `The text is long (${length} words): it may hide several stories.`);
  if (words(story.title).length > 14)
    flag('long_title', 5, 'The title is long: a short title that names the outcome reads better.');

  const dependent = DEPENDENCY_PATTERN.test(text);
  if (dependent)
    flag(
      'dependency',
      5,
      'It depends on other work.',
      'Can it be built and released before the work it depends on?',
    );
  const prescriptive = (text.match(SOLUTION_PATTERN) ?? []).length >= 2;
  if (prescriptive)
    flag('prescriptive', 5, 'It prescribes the solution (implementation details) rather than the need.');
  for (const condition of reading.conditions.slice(0, 2))
    questions.push(`What should happen if "${condition}" does not hold?`);
  if (
    !reading.criteria.some((c) =>
      /\b(error|fail|invalid|declin|reject|denied|not allowed|cannot|can't|missing)/i.test(c),
    )
  )
    questions.push(
      `What should happen when ${reading.actions[0] ? `"${reading.actions[0].phrase}"` : 'it'} fails (invalid input, no permission, a service down)?`,
    );

  const score = Math.max(0, Math.min(100, 100 - penalty));
  return {
    story_id: (story as { id: string }).id,
    clarity_score: score,
    issues,
    questions: [...new Set(questions)].slice(0, 10),
    invest: invest(reading, {
      dependent,
      prescriptive,
      score,
      length,
      testable: testable.length,
      vague: vague.length > 0,
    }),
  };
}

function invest(
  reading: StoryReading,
  found: {
    dependent: boolean;
    prescriptive: boolean;
    score: number;
    length: number;
    testable: number;
    vague: boolean;
  },
): Invest {
  return {
    independent: !found.dependent,
    negotiable: !found.prescriptive,
    valuable: Boolean(reading.benefit || reading.role),
    estimable:
      Boolean(reading.goal) &&
      found.score >= 50 &&
      !/\b(tbd|tbc|unknown|unclear)\b/i.test(reading.details.join(' ')),
    small: reading.actions.length <= 1 && found.length <= 300 && reading.criteria.length <= 8,
    testable: found.testable > 0 && !found.vague,
  };
}
