import {
  makeEvent,
  eventEnvelopeSchema,
  parseEventData,
  publicEventTypes,
  eventSchemas,
  sessionCodeOf,
  cardNumber,
  cutText,
} from './index.ts';

describe('contracts', () => {
  it('reads session codes in any case of ASCII letters, and nothing else', () => {
    expect(sessionCodeOf('ab3dEf')).toBe('AB3DEF');
    for (const odd of [' AB3DEF', 'AB3DEF\t', 'AB3DEF\u2003', 'AB3DEſ', 'ABCDE', 'ABC-EF', 'ABCDEFG'])
      expect(sessionCodeOf(odd)).toBeUndefined();
  });

  it('reads a card as a number only when it is written as one', () => {
    for (const [card, n] of [
      ['13', 13],
      ['0.5', 0.5],
      ['-1', -1],
      ['.5', 0.5],
      ['3.', 3],
      [' 8 ', 8],
    ] as const)
      expect(cardNumber(card)).toBe(n);
    for (const label of ['0x10', '1e3', '1e308', 'Infinity', '', '?', 'XL', '1,5', '½'])
      expect(cardNumber(label)).toBeUndefined();
  });

  it('cuts a text between characters, with a mark for what is left out', () => {
    expect(cutText('short', 10)).toBe('short');
    expect(cutText('abcdef', 4)).toBe('abc…');
    // The cut would fall within the emoji: it goes whole.
    expect(cutText('ab😀cd', 4)).toBe('ab…');
    expect(cutText('a😀cd', 4)).toBe('a😀…');
  });

  it('builds envelopes that satisfy the envelope schema', () => {
    const event = makeEvent(
      'token.revoked',
      { token_id: 't', user_id: 'u', kind: 'api' },
      { source: 'identity', correlationId: 'c1' },
    );
    expect(eventEnvelopeSchema.parse(event)).toEqual(event);
    expect(event).toMatchObject({
      type: 'token.revoked',
      version: 1,
      source: 'identity',
      correlation_id: 'c1',
    });
  });

  it('refuses a vote.cast event that carries the vote value', () => {
    const data = {
      session_id: '8a6e0804-2bd0-4672-b79d-d97027f9071a',
      session_code: 'ABCDEF',
      story_id: '8a6e0804-2bd0-4672-b79d-d97027f9071b',
      participant: { id: 1, name: 'Ann' },
      stats: { votes_cast: 1, total_participants: 2, all_voted: false },
    };
    expect(parseEventData('vote.cast', data)).toEqual(data);
    expect(parseEventData('vote.cast', { ...data, value: '5' })).not.toHaveProperty('value');
    expect(() => parseEventData('vote.cast', { ...data, stats: {} })).toThrow();
  });

  it('has a schema for every public event type', () => {
    for (const type of publicEventTypes) expect(eventSchemas[type]).toBeDefined();
  });
});
