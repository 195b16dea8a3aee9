import { vagueTerms } from './analyze.ts';
import { readStory, type Action, type StoryText } from './story-form.ts';
import { verbKind } from './lexicon.ts';
import { LIMITS } from './suggestions.ts';
import { article, capitalize, clip, decapitalize, isPlural, quote } from './text.ts';

export interface Improvement {
  story_id: string;
  title: string;
  description: string;
  rationale: string[];
}

/** A likely value of an action, by the kind of verb, for a story that states none (to be confirmed). */
export function likelyBenefit(a: Action | undefined): string | null {
  if (!a) return null;
  const thing = a.thing || 'them';
  switch (verbKind(a.verb)) {
    case 'search':
      return 'I find what I need without going through everything';
    case 'export':
      return `I can use the ${thing} outside the product`;
    case 'import':
      return `I do not have to type the ${thing} in again`;
    case 'pay':
      return 'I can complete my purchase without help';
    case 'book':
      return 'I am sure of my place';
    case 'cancel':
      return 'I free what I no longer need';
    case 'send':
      return 'the right people know in time';
    case 'create':
      return `I can keep track of my ${thing}`;
    case 'edit':
      return `my ${thing} ${isPlural(thing) ? 'stay' : 'stays'} accurate`;
    case 'delete':
      return `my ${thing} ${isPlural(thing) ? 'stay' : 'stays'} tidy and current`;
    case 'view':
      return `I know where my ${thing} ${isPlural(thing) ? 'stand' : 'stands'}`;
    case 'login':
      return 'my data stays mine';
    default:
      return null;
  }
}

const FILLER = /\s*,?\s*(?:\betc\b\.?|\band so on\b|\band more\b)/gi;

/** The story rewritten in user-story form ("As a … I want … so that …"), keeping its details, with why. */
export function improveStory(story: StoryText): Improvement {
  const reading = readStory(story);
  const rationale: string[] = [];
  const role = reading.role ?? reading.impliedRole ?? 'user';
  if (!reading.role)
    rationale.push(
      reading.impliedRole
        ? `Named the role "${role}", which the story mentions: confirm it is the one who benefits.`
        : 'Named a generic "user": replace it with the role that needs this.',
    );
  const goal = (reading.goal ?? `use the ${decapitalize(story.title.trim())}`).replace(FILLER, '');
  if (!reading.goal) rationale.push('Stated what the user wants to do, from the title.');
  let benefit = reading.benefit;
  if (!benefit) {
    benefit = likelyBenefit(reading.actions[0]) ?? '[the value it brings, to be confirmed]';
    rationale.push(
      `Added the value ("so that ${benefit}"): the story did not say why; confirm it with the product owner.`,
    );
  }
  const title = clip(capitalize(reading.actions.length > 3 ? reading.actions[0]!.phrase : goal), 80);
  if (title !== story.title.trim()) rationale.push('The title now names the outcome, starting with a verb.');

  const details = reading.details.map((d) => d.replace(FILLER, '').trim()).filter((d) => d.length > 0);
  if (details.join(' ') !== reading.details.join(' '))
    rationale.push('Removed open-ended filler ("etc", "and so on"): list what is included.');
  const vague = vagueTerms(`${story.title} ${story.description}`).filter(
    (v) => v.word !== 'etc' && v.word !== 'and so on',
  );
  const questions = vague.map((v) => `- ${v.question}`);
  if (vague.length > 0)
    rationale.push(
      `Kept, to be made measurable: ${vague.map((v) => `"${v.word}"`).join(', ')} (see the open questions).`,
    );
  if (reading.actions.length > 1)
    rationale.push(
      `It joins ${reading.actions.length} features (${quote(
        reading.actions.map((a) => a.phrase),
        5,
      )}): consider splitting it.`,
    );

  const form = `As ${article(role)} ${role}, I want to ${goal.replace(/[.\s]+$/, '')}, so that ${benefit.replace(/[.\s]+$/, '')}.`;
  const description = [
    form,
    details.join(' '),
    questions.length > 0 ? `Open questions:\n${questions.join('\n')}` : '',
  ]
    .filter((part) => part.length > 0)
    .join('\n\n');
  if (rationale.length === 0)
    rationale.push('The story is already in user-story form; only its layout changed.');
  return { story_id: story.id, title, description: clip(description, LIMITS.text), rationale };
}
