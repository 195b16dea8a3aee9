/**
 * Realistic, varied story texts for benchmarks: a role, an action on a thing with a qualifier, a value
 * and two acceptance criteria, drawn from small vocabularies by a seeded generator (the same seed gives
 * the same story).
 */
const ROLES = [
  'shopper',
  'buyer',
  'member',
  'administrator',
  'accountant',
  'manager',
  'guest',
  'instructor',
  'editor',
  'support agent',
];
const ACTIONS: Array<[string, string]> = [
  ['export', 'invoices'],
  ['download', 'receipts'],
  ['filter', 'orders'],
  ['search', 'products'],
  ['book', 'classes'],
  ['cancel', 'bookings'],
  ['upload', 'documents'],
  ['share', 'reports'],
  ['approve', 'expenses'],
  ['assign', 'tickets'],
  ['comment on', 'tasks'],
  ['archive', 'projects'],
  ['invite', 'teammates'],
  ['schedule', 'meetings'],
  ['pay', 'subscriptions'],
  ['print', 'shipping labels'],
  ['import', 'contacts'],
  ['sync', 'calendars'],
  ['tag', 'photos'],
  ['rate', 'courses'],
  ['track', 'deliveries'],
  ['compare', 'plans'],
  ['merge', 'duplicate customers'],
  ['translate', 'articles'],
  ['refund', 'payments'],
];
const QUALIFIERS = [
  'as PDF',
  'by date',
  'from the dashboard',
  'in bulk',
  'on mobile',
  'with one click',
  'for last month',
  'by customer',
  'without an account',
  'from a spreadsheet',
  'with a reminder',
  'per team',
];
const BENEFITS = [
  'I save time every week',
  'nothing gets lost',
  'I can answer customers quickly',
  'the team stays informed',
  'I keep my records complete',
  'I avoid mistakes',
];

function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function storyText(seed: number) {
  const next = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const role = pick(ROLES);
  const [verb, thing] = pick(ACTIONS);
  const qualifier = pick(QUALIFIERS);
  const title = `${verb.charAt(0).toUpperCase()}${verb.slice(1)} ${thing} ${qualifier}`;
  return {
    title,
    description: `As ${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}, I want to ${verb} ${thing} ${qualifier}, so that ${pick(BENEFITS)}.`,
    acceptance_criteria:
      `Given I am signed in as ${role}, When I ${verb} ${thing} ${qualifier}, Then I see a confirmation\n` +
      `Given the ${thing} cannot be found, When I try again, Then I see an error`,
  };
}
