/**
 * The dependency rules of `npm run lint` (.dependency-cruiser.cjs) catch what they are meant to: the
 * project's own rules and options run over fixtures/dependency-rules/, a tree laid out like the repo in
 * which each file named after a mistake (`imports-a-service.ts`, `reads-the-db.ts`...) makes one, and
 * every other import is allowed.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cruise } from 'dependency-cruiser';
import type { ICruiseOptions, ICruiseResult, IForbiddenRuleType } from 'dependency-cruiser';
import { repoRoot } from '../src/launcher/units.ts';

interface DependencyCruiserConfig {
  forbidden: IForbiddenRuleType[];
  options: ICruiseOptions & { tsConfig?: unknown };
}

const config = createRequire(import.meta.url)(
  join(repoRoot, '.dependency-cruiser.cjs'),
) as DependencyCruiserConfig;
const fixture = join(repoRoot, 'deploy/test/fixtures/dependency-rules');
const roots = ['libs', 'services', 'gateway', 'deploy', 'bench'];

/** Cruises the fixture as `npm run lint` cruises the repo, from the fixture's root. */
const cruiseFixture = async (): Promise<ICruiseResult> => {
  // The fixture imports by relative paths only: no tsconfig needed to resolve them.
  const { tsConfig: _tsConfig, ...options } = config.options;
  const { output } = await cruise(roots, {
    ...options,
    baseDir: fixture,
    validate: true,
    ruleSet: { forbidden: config.forbidden },
  });
  return output as ICruiseResult;
};

describe('dependency rules (.dependency-cruiser.cjs)', () => {
  let result: ICruiseResult;
  const violationsOf = (rule: string) =>
    result.summary.violations
      .filter((v) => v.rule.name === rule)
      // A package resolves to the repo's node_modules, above the fixture: name it from node_modules/.
      .map((v) => `${v.from} -> ${v.to.replace(/^(\.\.\/)+node_modules\//, 'node_modules/')}`)
      .sort();

  beforeAll(async () => {
    result = await cruiseFixture();
  });

  it('cruises every fixture file and resolves every import (an allowed import passes for being allowed)', () => {
    const sources = result.modules.map((m) => m.source);
    for (const file of [
      'gateway/src/allowed.ts',
      'deploy/src/launcher.ts',
      'deploy/test/starts-everything.ts',
      'services/a/src/routes/votes.routes.ts',
      'services/a/src/use-cases/cast-vote.use-case.ts',
      'services/a/src/domain/vote.ts',
      'services/a/test/support.ts',
      'libs/bad/src/imports-a-service.ts',
      'bench/src/imports-the-gateway.ts',
    ]) {
      expect(sources).toContain(file);
    }
    const unresolved = result.modules.flatMap((m) =>
      m.dependencies.filter((d) => d.couldNotResolve).map((d) => `${m.source} -> ${d.module}`),
    );
    expect(unresolved).toEqual([]);
  });

  it('every rule of the config is exercised, and nothing else is reported', () => {
    const reported = new Set(result.summary.violations.map((v) => v.rule.name));
    expect([...reported].sort()).toEqual(config.forbidden.map((r) => r.name).sort());
    expect(result.summary.violations.every((v) => v.rule.severity === 'error')).toBe(true);
  });

  it('gateway-imports-no-service: the gateway imports no service', () => {
    expect(violationsOf('gateway-imports-no-service')).toEqual([
      'gateway/src/imports-a-service.ts -> services/a/src/paths.ts',
    ]);
  });

  it('deploy-imports-no-service: the launcher imports no service', () => {
    expect(violationsOf('deploy-imports-no-service')).toEqual([
      'deploy/src/imports-a-service.ts -> services/a/src/paths.ts',
    ]);
  });

  it('gateway-and-deploy-stay-apart: neither the gateway nor deploy imports the other', () => {
    expect(violationsOf('gateway-and-deploy-stay-apart')).toEqual([
      'deploy/src/imports-the-gateway.ts -> gateway/src/allowed.ts',
      'gateway/src/imports-deploy.ts -> deploy/src/launcher.ts',
    ]);
  });

  it('service-imports-no-other-unit: a service imports no other service, nor the gateway or bench; its test folder may', () => {
    expect(violationsOf('service-imports-no-other-unit')).toEqual([
      'services/a/src/imports-other-units.ts -> bench/src/load.ts',
      'services/a/src/imports-other-units.ts -> gateway/src/allowed.ts',
      'services/a/src/imports-other-units.ts -> services/b/src/paths.ts',
    ]);
  });

  it('libs-import-no-unit: a library imports no unit', () => {
    expect(violationsOf('libs-import-no-unit')).toEqual([
      'libs/bad/src/imports-a-service.ts -> services/a/src/paths.ts',
    ]);
  });

  it('bench-imports-no-unit: the benchmark tooling imports no unit', () => {
    expect(violationsOf('bench-imports-no-unit')).toEqual([
      'bench/src/imports-the-gateway.ts -> gateway/src/allowed.ts',
    ]);
  });

  it('domain-imports-only-domain: domain/ imports nothing of its unit but domain/, not even a type from db/', () => {
    expect(violationsOf('domain-imports-only-domain')).toEqual([
      'services/a/src/domain/imports-db.ts -> services/a/src/db/vote.entity.ts',
      'services/a/src/domain/imports-db.ts -> services/a/src/db/vote.repository.ts',
    ]);
  });

  it('domain-is-pure: domain/ imports no node I/O module, I/O package or I/O library', () => {
    expect(violationsOf('domain-is-pure')).toEqual([
      'services/a/src/domain/does-io.ts -> fs',
      'services/a/src/domain/does-io.ts -> libs/db/src/index.ts',
      'services/a/src/domain/does-io.ts -> node_modules/express/index.js',
    ]);
  });

  it('routes-reach-db-through-use-cases: a route imports values from neither db/ nor libs/db; types are fine', () => {
    expect(violationsOf('routes-reach-db-through-use-cases')).toEqual([
      'services/a/src/routes/reads-the-db.ts -> libs/db/src/index.ts',
      'services/a/src/routes/reads-the-db.ts -> services/a/src/db/vote.repository.ts',
    ]);
    const typeOnly = result.modules
      .find((m) => m.source === 'services/a/src/routes/votes.routes.ts')!
      .dependencies.find((d) => d.resolved === 'services/a/src/db/vote.entity.ts');
    expect(typeOnly?.dependencyTypes).toContain('type-only');
  });

  it('no-circular: an import cycle (reported once)', () => {
    const cycles = result.summary.violations.filter((v) => v.rule.name === 'no-circular');
    expect(cycles.map((v) => [v.from, ...(v.cycle ?? []).map((step) => step.name)])).toEqual([
      ['services/b/src/cycle-one.ts', 'services/b/src/cycle-two.ts', 'services/b/src/cycle-one.ts'],
    ]);
  });
});
