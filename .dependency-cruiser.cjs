/** Architecture rules checked by `npm run lint`. */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'domain/ holds pure logic: no routes, db, events, clients or I/O libraries',
      severity: 'error',
      from: { path: '/domain/' },
      to: {
        path: [
          '/routes/',
          '/db/',
          '/events/',
          '/clients/',
          '/use-cases/',
          'node_modules/(express|@mikro-orm|@nats-io|axios|pg|redis|opossum)/',
          '^(fs|net|http|https|dgram|child_process)$',
          '^node:(fs|net|http|https|dgram|child_process)$',
          'libs/(db|events|http-client|http)/',
        ],
      },
    },
    {
      name: 'no-cross-service-imports',
      comment: 'a service never imports another unit; shared code lives in libs/ (end-to-end tests may)',
      severity: 'error',
      from: { path: '^services/([^/]+)/', pathNot: '^services/[^/]+/test/' },
      to: { path: '^(services/(?!$1/)|gateway/)' },
    },
    {
      name: 'libs-stand-alone',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^(services|gateway|deploy)/' },
    },
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
    exclude: { path: ['node_modules', '\\.test\\.ts$'] },
  },
};
