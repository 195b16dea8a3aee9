import { exportRows, votesCell } from './export-rows.ts';
import { toCsv } from './csv.ts';
import { votesToKeep, votesToShow } from './vote-names.ts';

describe('csv', () => {
  it('quotes every field, doubles quotes, keeps line breaks inside a field and ends lines with CRLF', () => {
    expect(
      toCsv([
        ['a', 'b "c"', 'x\ny'],
        [1, null, ''],
      ]),
    ).toBe('"a","b ""c""","x\ny"\r\n"1",,""\r\n');
  });

  it('neutralises text a spreadsheet would run as a formula, but not numbers', () => {
    expect(toCsv([['=1+1', '+x', '-y', '@z', 'ok', -3]])).toBe(`"'=1+1","'+x","'-y","'@z","ok","-3"\r\n`);
  });
});

describe('vote names', () => {
  const room = [{ participant: { id: 7, name: 'Ann' }, value: '5' }];

  it('keeps names and ids only when the session records them', () => {
    expect(votesToKeep(room, true)).toEqual(room);
    expect(votesToKeep(room, false)).toEqual([{ participant: { id: null, name: null }, value: '5' }]);
  });

  it('hides recorded names once the session stops recording them', () => {
    expect(votesToShow(room, false)).toEqual([{ participant: { id: null, name: null }, value: '5' }]);
    expect(votesToShow(room, true)).toEqual(room);
  });

  it('writes the votes of an exported story as one cell', () => {
    expect(votesCell([...room, { participant: { id: null, name: null }, value: '8' }])).toBe('Ann: 5; 8');
    expect(exportRows([])[0]).toContain('final_estimate');
  });
});
