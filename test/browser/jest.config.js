// The browser tests (`npm run test:browser`): Swagger UI and CORS in a real headless Chromium,
// against API processes started from dist/ (`npm run build` first). Kept out of `npm test`, which
// must run where no browser is installed.
const base = require('../../jest.config.js');
const unit = base.projects.find((project) => project.displayName === 'unit');

/** @type {import('jest').Config} */
module.exports = {
  ...unit,
  displayName: 'browser',
  rootDir: '../..',
  roots: ['<rootDir>/test/browser'],
  testMatch: ['**/*.browser-spec.ts'],
  maxWorkers: 1,
  testTimeout: 60000,
};
