'use strict';
/**
 * Summarizes V8 CPU profiles (`.cpuprofile`, as `node --cpu-prof` writes them): where the
 * process spent its samples, by package (a dependency under node_modules, Bindery's own code
 * by folder, Node's internals, idle and garbage collection) and by function (self time).
 *
 *   BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" node bench/run.js
 *   node bench/profile-summary.js /tmp/prof/<file>.cpuprofile [top] [skip]
 *
 * `skip`: seconds of the profile's start to leave out (the process starting, the seeding).
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');

/** The bucket a frame's time goes to: `pg`, `@nestjs/core`, `bindery src/platform/auth`, … */
function bucketOf(frame) {
  const { url, functionName } = frame.callFrame;
  if (!url) {
    if (functionName === '(garbage collector)') return '(garbage collector)';
    if (functionName === '(idle)' || functionName === '(program)') return functionName;
    return '(native)';
  }
  if (url.startsWith('node:')) return 'node internals';
  const file = url.replace(/^file:\/\//, '');
  const modules = file.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = file.slice(modules + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const relative = path.relative(ROOT, file).replace(/^dist\//, '');
  return `bindery ${relative.split('/').slice(0, 3).join('/')}`;
}

function summarize(profile, top, skipSeconds) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const counts = new Map();
  // timeDeltas[i] is the µs between sample i - 1 and sample i; the first is from startTime.
  let at = 0;
  let total = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i];
    if (at < skipSeconds * 1e6) return;
    counts.set(id, (counts.get(id) ?? 0) + 1);
    total += 1;
  });
  const idle = [...counts].reduce(
    (sum, [id, n]) => (byId.get(id).callFrame.functionName === '(idle)' ? sum + n : sum),
    0,
  );
  const busy = total - idle;

  const buckets = new Map();
  const functions = new Map();
  for (const [id, n] of counts) {
    const node = byId.get(id);
    if (node.callFrame.functionName === '(idle)') continue;
    const bucket = bucketOf(node);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + n);
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${path.basename(url)}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'} ${where} [${bucket}]`;
    functions.set(key, (functions.get(key) ?? 0) + n);
  }
  const share = (n) => `${((100 * n) / busy).toFixed(1).padStart(5)} %`;
  const print = (title, map) => {
    console.log(`\n${title}`);
    for (const [key, n] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`  ${share(n)}  ${key}`);
    }
  };
  console.log(
    `${total} samples, ${((100 * idle) / total).toFixed(1)} % idle; shares below are of the busy samples`,
  );
  print('By package', buckets);
  print('By function (self time)', functions);
}

const [file, top = '30', skip = '0'] = process.argv.slice(2);
if (!file) {
  process.stderr.write(
    'usage: node bench/profile-summary.js <file.cpuprofile> [top] [seconds to skip, e.g. the start]\n',
  );
  process.exit(2);
}
summarize(JSON.parse(fs.readFileSync(file, 'utf8')), Number(top), Number(skip));
