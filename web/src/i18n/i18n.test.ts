import { de } from './de.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { pickLang } from './i18n.ts';

describe('the room in four languages', () => {
  it("picks the language kept from the switch, else the browser's first one the room speaks, else English", () => {
    expect(pickLang('fr', ['de-DE'])).toBe('fr');
    expect(pickLang(null, ['nl-NL', 'es-MX', 'de'])).toBe('es');
    expect(pickLang('xx', ['pt-BR'])).toBe('en');
  });

  it('has every text in every catalog, the same functions with the same arguments', () => {
    for (const catalog of [de, fr, es]) {
      expect(Object.keys(catalog).sort()).toEqual(Object.keys(en).sort());
      for (const [key, value] of Object.entries(en))
        expect([key, typeof (catalog as Record<string, unknown>)[key]]).toEqual([key, typeof value]);
    }
    expect(de.votedCount(2, 3)).toBe('2 von 3 haben abgestimmt');
    expect(fr.duration(1, 30)).toBe('1 minute 30 secondes');
  });
});
