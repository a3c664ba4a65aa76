/**
 * `npm run build`: compiles src/ and migrations/ into dist/ (swc), then ships the migrated
 * embedded database next to the code (dist/src/platform/database/build-template.js), saying
 * what it is doing on one line, since `npm start` builds first.
 */
const { spawnSync } = require('node:child_process');
const { rmSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const started = Date.now();
const say = (text) => process.stdout.write(text);

say('Build: compiling TypeScript…');
for (const folder of ['dist/src', 'dist/migrations']) {
  rmSync(join(root, folder), { recursive: true, force: true });
}
const swc = spawnSync(
  process.execPath,
  [
    require.resolve('@swc/cli/bin/swc.js'),
    ...['src', 'migrations', '-d', 'dist', '-q', '--ignore', '**/*.spec.ts'],
  ],
  { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] },
);
if (swc.status !== 0) {
  say('\n');
  process.exit(swc.status ?? 1);
}

const { buildTemplate } = require(join(root, 'dist/src/platform/database/build-template.js'));
buildTemplate(() => say(' building the embedded database template (runs the migrations)…')).then(
  () => say(` done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`),
  (error) => {
    say('\n');
    process.stderr.write(`Could not build the embedded database template: ${String(error)}\n`);
    process.exit(1);
  },
);
