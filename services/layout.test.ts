import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { services } from '@pp/config';

/**
 * Every unit has one layout, so a new one is a copy of a small real one and a path of the API is two
 * hops from the gateway's route table (the unit, then its routes/): main.ts runs the process, app.ts
 * wires the unit (its routes; its database, consumers and tasks), and the folders below hold one kind
 * of thing each. `clients/` is there only in units that call another unit or an outside API, and `db/`
 * only in units that own data.
 */
const FOLDERS = ['api', 'background', 'db', 'domain', 'routes', 'use-cases'];
const ownsData = (unit: string) => Boolean(services.find((s) => s.name === unit)?.database);
const FILES = ['app.ts', 'config.ts', 'main.ts'];
const OPTIONAL = ['clients', 'errors.ts'];

const root = import.meta.dirname;
const units = readdirSync(root).filter((name) => statSync(join(root, name)).isDirectory());

describe.each(units)('the %s unit', (unit) => {
  const src = join(root, unit, 'src');
  const entries = readdirSync(src);
  const folders = entries.filter((e) => statSync(join(src, e)).isDirectory()).sort();

  it('has the top-level folders and files every unit has, and nothing else', () => {
    const expected = ownsData(unit) ? FOLDERS : FOLDERS.filter((f) => f !== 'db');
    expect(folders.filter((f) => !OPTIONAL.includes(f))).toEqual(expected);
    expect(entries.filter((e) => !folders.includes(e) && !OPTIONAL.includes(e)).sort()).toEqual(FILES);
  });

  it('names each use case after its entry point, with helpers in use-cases/shared/', () => {
    const cases = readdirSync(join(src, 'use-cases')).filter((e) => e !== 'shared');
    expect(cases.filter((file) => !file.endsWith('.use-case.ts'))).toEqual([]);
  });

  it('wires its consumers and tasks in background/index.ts', () => {
    expect(readdirSync(join(src, 'background'))).toContain('index.ts');
  });
});
