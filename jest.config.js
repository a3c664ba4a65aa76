// Transform with SWC using .swcrc (fast, and lets ESM-only dependencies through); type-checking
// is `npm run typecheck`.
const swc = ['@swc/jest', {}];
const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)sx?$': swc },
  // Packages published only as ES modules must be transformed too.
  transformIgnorePatterns: [
    '/node_modules/(?!(unified|remark-.*|mdast-.*|micromark.*|unist-.*|vfile.*|bail|trough|is-plain-obj|devlop|decode-named-character-reference|character-entities.*|ccount|escape-string-regexp|markdown-table|longest-streak|zwitch|property-information|space-separated-tokens|comma-separated-tokens|html-void-elements|stringify-entities|trim-lines|hast-.*|hastscript|parse5|entities|web-namespaces|estree-util-.*)/)',
  ],
  moduleFileExtensions: ['ts', 'js', 'json'],
};

/** @type {import('jest').Config} */
module.exports = {
  maxWorkers: 2,
  // A worker that holds more than this after a test file is replaced by a fresh one: each e2e
  // file builds a whole app, and a worker that ran fifty of them held 4 GB, its collector
  // slowing every later file until apps no longer started within the hook timeout.
  workerIdleMemoryLimit: '1536MB',
  testTimeout: 30000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      roots: ['<rootDir>/src'],
      testMatch: ['**/*.spec.ts'],
      globalSetup: '<rootDir>/test/unit-global-setup.ts',
      globalTeardown: '<rootDir>/test/unit-global-teardown.ts',
    },
    {
      ...shared,
      displayName: 'e2e',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/global-setup.ts',
      globalTeardown: '<rootDir>/test/global-teardown.ts',
    },
  ],
};
