import {
  makeEvent,
  eventEnvelopeSchema,
  parseEventData,
  publicEventTypes,
  eventSchemas,
  sessionCodeOf,
  cardNumber,
  cutText,
  storableText,
  characters,
  characterCount,
} from './index.ts';
import { z } from 'zod';

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

  it('keeps a text from outside as a column can: no NUL, no lone surrogate', () => {
    expect(storableText('a\u0000b\ud800c')).toBe('ab\ufffdc');
    expect(storableText('a\u0000b', '\ufffd')).toBe('a\ufffdb');
    expect(storableText('😀 é')).toBe('😀 é');
  });

  it('cuts a text between characters, with a mark for what is left out', () => {
    expect(cutText('short', 10)).toBe('short');
    expect(cutText('abcdef', 4)).toBe('abc…');
    // The cut would fall within the emoji: it goes whole.
    expect(cutText('ab😀cd', 4)).toBe('ab…');
    expect(cutText('a😀cd', 4)).toBe('a😀…');
  });

  it('limits an input text in characters, as its documented maxLength does, not in UTF-16 units', () => {
    const title = characters(4, { trim: true, min: 1 });
    expect(characterCount('😀😀é')).toBe(3);
    expect(title.parse(' 😀😀😀😀 ')).toBe('😀😀😀😀');
    expect(title.safeParse('😀😀😀😀😀').error?.issues).toEqual([
      expect.objectContaining({ message: 'Too big: expected string to have <=4 characters' }),
    ]);
    expect(title.safeParse('abcde').success).toBe(false);
    expect(title.safeParse('   ').success).toBe(false);
    expect(title.safeParse(7).success).toBe(false);
    expect(z.toJSONSchema(title.optional().meta({ description: 'A title' }))).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: 4,
      description: 'A title',
    });
    // é as one character, and as e with a combining accent: one value once read as NFC.
    const card = characters(2, { nfc: true });
    expect(card.parse('e\u0301')).toBe('\u00e9');
    expect(card.parse('\u00e9\u00e9')).toBe('\u00e9\u00e9');
    expect(card.safeParse('e\u0301e\u0301').success).toBe(true);
    // At least: characters too (four emoji are eight UTF-16 units, and four characters).
    const password = characters(256, { min: 8 });
    expect(password.safeParse('😀'.repeat(4)).error?.issues).toEqual([
      expect.objectContaining({ message: 'Too small: expected string to have >=8 characters' }),
    ]);
    expect(password.safeParse('😀'.repeat(8)).success).toBe(true);
    expect(z.toJSONSchema(password)).toMatchObject({ minLength: 8, maxLength: 256 });
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
