/**
 * Word lists of the built-in engine. They are small on purpose: each one feeds a signal a team would
 * recognise (a vague word, a verb that starts a feature), and a word missing here only weakens a hint.
 */

/** Verbs that start a user-facing feature, in their base form. */
export const FEATURE_VERBS = new Set(
  `access accept add adjust apply approve archive assign attach authenticate book browse buy calculate
  cancel change check checkout choose claim clear close comment compare complete configure confirm connect
  copy create customise customize deactivate decline delete deploy disable download drag drop duplicate edit
  email enable enter estimate export fill filter find follow generate get give group hide import invite join
  like link list lock log login logout look manage mark merge message migrate monitor move notify open order
  organise organize pay pick pin play post preview print publish purchase rate read receive record
  recover refund register reject remind remove rename reorder reply report request reschedule reserve reset
  restore retry return review save scan schedule search see select sell send set share show sign sort split
  start stop submit subscribe suggest switch sync tag track transfer translate unlock unsubscribe update
  upgrade upload use validate verify view vote watch withdraw write make improve fix build implement support
  display include offer integrate redesign enhance optimise optimize allow let`.split(/\s+/),
);

/**
 * Feature verbs by kind: what succeeding, failing and the likely benefit look like depends on the kind
 * (criteria and rewrites read it), not on the verb itself.
 */
const VERB_KINDS = {
  create: 'create add register post write record submit',
  edit: 'edit update change rename adjust configure set',
  delete: 'delete remove archive withdraw',
  view: 'view see list browse read open show preview look track monitor',
  search: 'search filter find sort',
  export: 'export download print generate report',
  import: 'import upload attach scan',
  pay: 'pay buy purchase checkout order',
  book: 'book reserve schedule reschedule join subscribe',
  cancel: 'cancel unsubscribe',
  send: 'send share invite notify message email remind reply',
  login: 'login log sign authenticate',
  decide: 'approve reject accept decline confirm verify',
} as const;
export type VerbKind = keyof typeof VERB_KINDS;
const KIND_OF = new Map<string, VerbKind>(
  Object.entries(VERB_KINDS).flatMap(([kind, verbs]) => verbs.split(' ').map((v) => [v, kind as VerbKind])),
);
export const verbKind = (verb: string): VerbKind | undefined => KIND_OF.get(verb);

/** Verbs whose feature is a family of operations on a thing: "manage invoices" is create, view, edit, delete. */
export const UMBRELLA_VERBS = new Set(['manage', 'administer', 'administrate', 'maintain', 'handle']);

/** Words that leave a story open to interpretation, with the question that pins each one down. */
export const VAGUE_TERMS: ReadonlyArray<[RegExp, string, string]> = [
  [/\betc\.?/i, 'etc', 'What exactly is included beyond the items listed ("etc")?'],
  [/\band so on\b/i, 'and so on', 'What exactly is included beyond the items listed ("and so on")?'],
  [/\bsome\b/i, 'some', 'Which ones exactly ("some")?'],
  [/\bseveral\b/i, 'several', 'How many exactly ("several")?'],
  [/\bmany\b/i, 'many', 'How many exactly ("many")?'],
  [/\bvarious\b/i, 'various', 'Which ones exactly ("various")?'],
  [/\bfast(er)?\b|\bquick(ly)?\b/i, 'fast', 'What response time is acceptable ("fast")?'],
  [/\bperformant\b|\befficient(ly)?\b/i, 'efficient', 'Which measurable target defines "efficient"?'],
  [
    /\buser[- ]friendly\b|\beasy to use\b|\bintuitive\b/i,
    'user-friendly',
    'What must be easy, for whom, and how will we check it ("user-friendly")?',
  ],
  [/\bsimple\b|\beasy\b(?! to use)/i, 'easy', 'What makes it easy enough, and how will we check it?'],
  [/\bflexible\b/i, 'flexible', 'Which variations must it support ("flexible")?'],
  [/\bsecure(ly)?\b/i, 'secure', 'Which threats or rules does "secure" mean here?'],
  [/\brobust\b|\breliable\b/i, 'robust', 'Which failures must it survive, and what must happen then?'],
  [/\bmodern\b|\bnice\b|\bbetter\b|\bimproved?\b/i, 'better', 'Better than what, measured how?'],
  [
    /\bappropriate(ly)?\b|\bproper(ly)?\b|\bas needed\b/i,
    'appropriate',
    'What is "appropriate" here: which rule decides?',
  ],
  [
    /\bsomehow\b|\bsomething\b|\bstuff\b|\bthings?\b/i,
    'something',
    'What exactly is meant by "something" / "things"?',
  ],
  [/\bmaybe\b|\bpossibly\b|\bif possible\b|\bideally\b/i, 'maybe', 'Is it in scope or not ("maybe")?'],
  [
    /\btbd\b|\btbc\b|\bto be defined\b|\?\?+/i,
    'TBD',
    'What is still to be decided (TBD), and who decides it?',
  ],
];

/** Signs that a story waits on other work (not independent). */
export const DEPENDENCY_PATTERN =
  /\b(depends? on|dependent on|blocked by|requires? (?:story|ticket|the new)|after (?:story|ticket) |once (?:the )?[\w-]+ (?:is|are) (?:done|ready|finished|live)|(?:story|ticket|issue) #?\d+|#\d+)\b/i;

/** Implementation detail that fixes the solution rather than the need (less negotiable). */
export const SOLUTION_PATTERN =
  /\b(database|table|column|endpoint|api call|microservice|react|angular|vue|sql|redis|kafka|json|css|html|pixels?|px|button colou?r|dropdown|modal|must use|using the \w+ library)\b/gi;

/** Words that make a criterion checkable: an observable outcome, a number, a state. */
export const OBSERVABLE_PATTERN =
  /\b(given|when|then|shows?|shown|displays?|displayed|sees?|receives?|returns?|saved|stored|sent|must|should|within|at most|at least|less than|more than|\d+)\b/i;

export const ROLE_NOUNS = new Set(
  `admin administrator agent analyst approver author buyer candidate cashier client coach customer designer
  developer doctor driver editor employee engineer guest host instructor manager member moderator nurse
  operator organiser organizer owner participant partner patient player reader recruiter reviewer seller
  shopper staff student subscriber supplier support teacher team tester traveller traveler user vendor viewer
  visitor voter writer`.split(/\s+/),
);

/** Common English words that carry no topic (with the user-story scaffolding words). */
export const STOPWORDS = new Set(
  `a about above after again all also am an and any are as at be because been before being below between both
  but by can could did do does doing down during each few for from further had has have having he her here
  hers him his how i if in into is it its itself just let like me more most my no nor not now of off on once
  only or other our ours out over own same she should so some such than that the their them then there these
  they this those through to too under until up very was we were what when where which while who whom why will
  with would you your yours able want wants need needs given story user users feature`.split(/\s+/),
);
