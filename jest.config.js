/** One jest run for every unit: unit tests beside the code, integration tests in test/. */
const swc = [
  '@swc/jest',
  {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2023' },
    module: { type: 'es6' },
  },
];

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  roots: [
    '<rootDir>/libs',
    '<rootDir>/services',
    '<rootDir>/gateway',
    '<rootDir>/deploy',
    '<rootDir>/bench',
    '<rootDir>/e2e',
    '<rootDir>/web',
  ],
  testMatch: ['**/*.test.ts'],
  moduleNameMapper: {
    '^@pp/([a-z-]+)$': '<rootDir>/libs/$1/src/index.ts',
    '^@pp/([a-z-]+)/([a-z-]+)$': '<rootDir>/libs/$1/src/$2.ts',
  },
  setupFiles: ['<rootDir>/libs/testing/src/jest-setup.ts'],
  globalSetup: '<rootDir>/deploy/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/deploy/test/support/global-teardown.ts',
  // Each test file's modules load into a context of their own, which the worker keeps: a worker past
  // this heap after a file is replaced, rather than grow to gigabytes it then takes too long to let go
  // of when the run ends (jest kills a worker that has not exited half a second after it was told).
  workerIdleMemoryLimit: '512MB',
  testTimeout: 30000,
  slowTestThreshold: 10,
};
