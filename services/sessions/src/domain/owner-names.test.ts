import { nameKey } from './owner-names.ts';

describe('owner names: one per owner in any case', () => {
  it('compares names as Unicode case folding does, beyond ASCII', () => {
    expect(nameKey('Équipe')).toBe(nameKey('équipe'));
    expect(nameKey('ÉQUIPE')).toBe(nameKey('e\u0301quipe'));
    expect(nameKey('Straße')).toBe(nameKey('STRASSE'));
    expect(nameKey('ΟΔΟΣ')).toBe(nameKey('οδοσ'));
    expect(nameKey('Backlog')).not.toBe(nameKey('Backlogs'));
  });
});
