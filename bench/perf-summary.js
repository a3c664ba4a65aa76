'use strict';
/**
 * Summarizes an on-CPU profile recorded by Linux `perf` (the text of `perf script`): what the
 * process's threads spent CPU on, by kind (JavaScript optimized or not, V8's builtins, V8's C++
 * runtime, garbage collection, the kernel, Node's C++), by function (self), by JavaScript
 * function (inclusive), and which JavaScript functions call into V8's slow paths (inline-cache
 * misses, object copies, prototype changes).
 *
 * Why beside profile-summary.js: V8's `--cpu-prof` samples on a wall-clock timer, so time the
 * process spends descheduled inside a system call (a socket write that wakes PostgreSQL, on a
 * machine whose cores are all busy) counts as busy; `perf record -e cpu-clock` samples a
 * thread only while it runs, and sees V8's own C++ and the collector's helper threads.
 *
 *   BENCH_ONLY=change-requests BENCH_NODE_ARGS="--perf-basic-prof --interpreted-frames-native-stack" \
 *     node bench/run.js &
 *   perf record -g -F 999 -e cpu-clock -p <Bindery's pid> -o /tmp/perf.data -- sleep 10
 *   perf script -i /tmp/perf.data > /tmp/perf.txt
 *   node bench/perf-summary.js /tmp/perf.txt [top]
 *
 * `--perf-basic-prof` writes /tmp/perf-<pid>.map, which names JIT code (`JS:*name file:line`:
 * `*` optimized, `^` baseline, `~` interpreted); a name can be stale where V8 moved code.
 */
const fs = require('node:fs');

const GC = /Scaveng|Heap::|Marking|Sweep|Evacuat|BodyDescriptor|MinorGC|MarkCompact/;

/**
 * Each sample's frames, leaf first, as `symbol` (no address, offset nor object file); the
 * kernel's and libc's frames as `[kernel] symbol` and `[libc] symbol`.
 */
function samplesOf(text) {
  return text
    .split(/\n\s*\n/)
    .map((block) =>
      block
        .split('\n')
        .slice(1)
        .map((line) => line.trim())
        .filter(Boolean)
        .map((line) => {
          const [, symbol, object] = /^[0-9a-f]+ (.*?)(?:\+0x[0-9a-f]+)? \((.*)\)$/.exec(line) ?? [
            null,
            line,
            '',
          ];
          if (object.includes('kernel')) return `[kernel] ${symbol}`;
          if (/\/lib(c|m|pthread)[.-]/.test(object)) return `[libc] ${symbol}`;
          return symbol;
        }),
    )
    .filter((frames) => frames.length > 0);
}

function kindOf(leaf) {
  if (leaf.startsWith('[kernel]')) return 'kernel';
  if (leaf.startsWith('[libc]')) return 'libc (memory copies, malloc)';
  if (GC.test(leaf)) return 'garbage collection';
  if (leaf.startsWith('JS:*')) return 'JavaScript, optimized';
  if (leaf.startsWith('JS:^')) return 'JavaScript, baseline';
  if (leaf.startsWith('JS:~')) return 'JavaScript, interpreted';
  if (leaf.startsWith('Builtins_') && leaf.includes('Handler')) return 'interpreter';
  if (leaf.startsWith('Builtins_')) return "V8's builtins";
  if (leaf.startsWith('v8::')) return "V8's C++ runtime (slow paths)";
  if (/^(node::|uv_|uv__|llhttp)/.test(leaf)) return "Node's C++, libuv";
  return 'other';
}

function summarize(samples, top) {
  const kinds = new Map();
  const leaves = new Map();
  const inclusive = new Map();
  const slowPaths = new Map();
  const add = (map, key) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const frames of samples) {
    const [leaf] = frames;
    const kind = kindOf(leaf);
    add(kinds, kind);
    add(leaves, leaf);
    for (const frame of new Set(frames.filter((f) => f.startsWith('JS:')))) add(inclusive, frame);
    if (kind === "V8's C++ runtime (slow paths)") {
      // The runtime function V8 entered (Runtime_LoadIC_Miss, …), else the builtin that did.
      let entry = frames.findIndex((f) => f.startsWith('v8::internal::Runtime_'));
      if (entry < 0) entry = frames.findIndex((f) => f.startsWith('Builtins_'));
      const caller = frames.slice(entry + 1).find((f) => f.startsWith('JS:'));
      const name = frames[entry]?.replace('v8::internal::', '');
      if (entry >= 0 && caller) add(slowPaths, `${name} ← ${caller}`);
    }
  }
  const share = (n) => `${((100 * n) / samples.length).toFixed(1).padStart(5)} %`;
  const print = (title, map, count = top) => {
    console.log(`\n${title}`);
    for (const [key, n] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count)) {
      console.log(`  ${share(n)}  ${key.slice(0, 160)}`);
    }
  };
  console.log(`${samples.length} on-CPU samples (all of the process's threads)`);
  print('By kind (the sample’s innermost frame)', kinds, 20);
  print('By function (self)', leaves);
  print('JavaScript functions, inclusive', inclusive);
  print('Slow paths of V8’s runtime, by the JavaScript that called them', slowPaths);
}

const [file, top = '30'] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node bench/perf-summary.js <perf script output | -> [top]\n');
  process.exit(2);
}
summarize(samplesOf(fs.readFileSync(file === '-' ? 0 : file, 'utf8')), Number(top));
