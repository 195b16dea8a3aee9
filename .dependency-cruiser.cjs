/**
 * Architecture rules checked by `npm run lint` (`depcruise ... libs services gateway deploy bench`).
 *
 * Units: the gateway (`gateway/`), the services (`services/<unit>/`), the launcher and deployment files
 * (`deploy/`), the benchmark tooling (`bench/`) and the end-to-end tests (`e2e/`). Libraries (`libs/<lib>/`)
 * are the code the units share.
 *
 * The rules bind production code. Test code may put units together: a unit's `test/` folder (the
 * TEST_FOLDER pattern below), the `*.test.ts` files (excluded from the cruise under `options`) and the
 * top-level `e2e/` (never cruised).
 *
 * Paths are relative to the folder depcruise runs from (the repo root), so every rule is anchored on a
 * repo path (`^services/`, `^gateway/`...). deploy/test/dependency-rules.test.ts runs these rules over a
 * small tree laid out like the repo and shows each one catching a violation.
 */

/** A unit's or a library's test folder: `gateway/test/`, `deploy/test/`, `services/<unit>/test/`... */
const TEST_FOLDER = '^((gateway|deploy|bench|e2e)|(services|libs)/[^/]+)/test/';

/** Every unit (anything under it); a library is none of them. */
const ANY_UNIT = '^(services|gateway|deploy|bench|e2e)/';

/** Libraries that do I/O (database, event bus, HTTP server and client, process wiring, test servers). */
const IO_LIBRARIES = '^libs/(db|events|http|http-client|outbound|runtime|testing)/';

/** Packages that do I/O: the HTTP server and client, the ORM and the database, NATS, Redis, the breaker. */
const IO_PACKAGES = 'node_modules/(express|@mikro-orm|@nats-io|axios|pg|redis|ioredis|opossum)/';

/** Node's I/O modules, with or without the `node:` prefix. */
const IO_NODE_MODULES = '^(node:)?(fs|fs/promises|net|tls|dns|http|https|http2|dgram|child_process)$';

module.exports = {
  forbidden: [
    // ---- between units ---------------------------------------------------------------------------

    {
      name: 'gateway-imports-no-service',
      comment:
        'the gateway only routes to the services over HTTP: it imports none of them (each unit describes ' +
        'its own paths), so a change in a service never rebuilds the gateway',
      severity: 'error',
      from: { path: '^gateway/', pathNot: TEST_FOLDER },
      to: { path: '^services/' },
    },
    {
      name: 'deploy-imports-no-service',
      comment: 'the launcher starts each service as a process (by its entry file): it imports none of them',
      severity: 'error',
      from: { path: '^deploy/', pathNot: TEST_FOLDER },
      to: { path: '^services/' },
    },
    {
      name: 'gateway-and-deploy-stay-apart',
      comment:
        'the launcher starts the gateway as a process and the gateway knows nothing of how it is run: ' +
        'neither imports the other',
      severity: 'error',
      from: { path: '^(gateway|deploy)/', pathNot: TEST_FOLDER },
      to: { path: '^(gateway|deploy)/', pathNot: '^$1/' },
    },
    {
      name: 'service-imports-no-other-unit',
      comment:
        'a service imports no other service, nor the gateway, deploy, bench or e2e: shared code lives in ' +
        'libs/, and services talk over events and internal HTTP',
      severity: 'error',
      from: { path: '^services/([^/]+)/', pathNot: TEST_FOLDER },
      to: { path: ANY_UNIT, pathNot: '^services/$1/' },
    },
    {
      name: 'libs-import-no-unit',
      comment:
        'libraries are shared by the units and depend on none of them, not even in their own tests ' +
        '(a unit-specific piece belongs in the unit)',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: ANY_UNIT },
    },
    {
      name: 'bench-imports-no-unit',
      comment:
        'the benchmark tooling is used by the launcher and the units, never the other way round: ' +
        'it imports no unit',
      severity: 'error',
      from: { path: '^bench/', pathNot: TEST_FOLDER },
      to: { path: ANY_UNIT, pathNot: '^bench/' },
    },

    // ---- inside a service: main.ts -> app.ts -> routes/ -> use-cases/ -> domain/ and db/ ----------

    {
      name: 'domain-imports-only-domain',
      comment:
        "domain/ holds the unit's pure logic: of the unit's own code it imports only domain/ (no routes, " +
        'use cases, db, events, clients, config, app); other units: service-imports-no-other-unit; ' +
        'libraries: domain-is-pure',
      severity: 'error',
      from: { path: '^services/([^/]+)/src/domain/' },
      to: { path: '^services/$1/', pathNot: '^services/$1/(src/domain|node_modules)/' },
    },
    {
      name: 'domain-is-pure',
      comment:
        'domain/ does no I/O: no I/O library (libs/db, events, http, http-client, runtime, testing), no ' +
        "I/O package (express, MikroORM, NATS, axios, pg, redis, opossum), no node I/O module (crypto's fine)",
      severity: 'error',
      from: { path: '^services/[^/]+/src/domain/' },
      to: { path: [IO_LIBRARIES, IO_PACKAGES, IO_NODE_MODULES] },
    },
    {
      name: 'routes-reach-db-through-use-cases',
      comment:
        'a route calls a use case, which reads and writes the database: routes/ imports nothing from ' +
        "db/ (nor libs/db, MikroORM or pg) but types (a view may name an entity's type)",
      severity: 'error',
      from: { path: '^services/[^/]+/src/routes/' },
      to: {
        path: ['^services/[^/]+/src/db/', '^libs/db/', 'node_modules/(@mikro-orm|pg)/'],
        dependencyTypesNot: ['type-only'],
      },
    },

    // ---- everywhere ------------------------------------------------------------------------------

    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js'],
    },
    // Packages stay in the graph (as leaves, see doNotFollow): excluding node_modules would hide the
    // I/O packages from domain-is-pure. Tests beside the code (`*.test.ts`) may put units together. The
    // rules' own fixture is a tree laid out like the repo, full of violations on purpose
    // (deploy/test/dependency-rules.test.ts cruises it).
    exclude: { path: ['\\.test\\.ts$', '^deploy/test/fixtures/dependency-rules/'] },
  },
};
