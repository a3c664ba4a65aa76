'use strict';
/**
 * `npm run bench`: Bindery's single reads against a bare node:http + pg ceiling
 * (bench/baseline.js) doing the same queries on the same database, a page of spaces against a
 * single read, and two API processes against one. See bench/README.md.
 *
 * Env: DATABASE_URL (a PostgreSQL server to create a throwaway database on; unset = embedded
 * PGlite in this process), BENCH_DURATION (seconds per measured run, default 10),
 * BENCH_CONNECTIONS (default 64), BENCH_WARMUP (seconds, default 5), BENCH_ROUNDS (default 3),
 * BENCH_RATE_LIMIT_STORE (Bindery's RATE_LIMIT_STORE; default process), BENCH_ONLY (measure
 * only the reads whose name contains it, and skip the two-process runs: to profile one route).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { randomBytes } = require('node:crypto');
const autocannon = require('autocannon');
const {
  RESULTS_DIR,
  BINDERY_MAIN,
  positiveNumber,
  log,
  sleep,
  cleanups,
  runMain,
  createPostgresDatabase,
  startEmbeddedDatabase,
  startChild,
  waitForHealth,
  cpuSeconds,
  freePort,
  api,
  expectOk,
  summarize,
  median,
} = require('./lib');

const DURATION = positiveNumber('BENCH_DURATION', 10);
const CONNECTIONS = Math.ceil(positiveNumber('BENCH_CONNECTIONS', 64));
// Long enough for the JIT to settle and the pools to fill; 2 s left the first target's figures unstable.
const WARMUP = positiveNumber('BENCH_WARMUP', 5);
// Rounds of Bindery and the ceiling, alternating, so drift of the machine hits both alike.
const ROUNDS = Math.ceil(positiveNumber('BENCH_ROUNDS', 3));
const USERS = 50;
const EXTRA_ORGS = 20;
const COLLECTIONS = 10;
const SPACES = 200;
const POOL_SIZE = 10;
const TARGET_RATIO = 0.6;
// Bindery's p99 and CPU per request against the ceiling's in the same run.
const TARGET_P99_FACTOR = 2;
const TARGET_CPU_FACTOR = 2;
const TARGET_LIST_RATIO = 0.5;
const SETTLE_MS = 1000;

/** The reads measured against the ceiling: Bindery's path and the ceiling's doing its queries. */
const READS = [
  { name: 'GET /v1/orgs/:id', path: (seed) => `/v1/orgs/${seed.orgId}` },
  { name: 'GET /v1/spaces/:id', path: (seed) => `/v1/spaces/${seed.spaceId}` },
  {
    name: 'GET /v1/spaces/:id/change-requests/:id',
    path: (seed) => `/v1/spaces/${seed.spaceId}/change-requests/${seed.changeRequestId}`,
  },
];
/** A page of 50 spaces, held to a share of the single space read's throughput. */
const LIST = {
  name: 'GET /v1/orgs/:id/spaces?limit=50',
  path: (seed) => `/v1/orgs/${seed.orgId}/spaces?limit=50`,
};

async function main() {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  fs.mkdirSync(RESULTS_DIR, { recursive: true });

  // 1. Database.
  const database = process.env.DATABASE_URL
    ? await createPostgresDatabase(process.env.DATABASE_URL)
    : await startEmbeddedDatabase(
        'embedded PGlite (in memory, served from this bench process): every query of both targets ' +
          'is serialized through one WASM engine that also shares a CPU with the load generator; ' +
          'compare ratios, not absolute numbers. Set DATABASE_URL for a real PostgreSQL run',
      );
  log(`Database: ${database.description}`);

  // 2. Bindery.
  const adminToken = randomBytes(36).toString('base64url'); // 48 characters
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-bench-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const binderyEnv = {
    DATABASE_URL: database.url,
    // The bench's embedded server shares one backend session between connections, where
    // named prepared statements would collide (Bindery turns them off on its own embedded one).
    DATABASE_PREPARED_STATEMENTS: String(database.kind === 'postgresql'),
    HOST: '127.0.0.1',
    SEED_DEMO: 'false',
    ADMIN_TOKEN: adminToken,
    // Required with DATABASE_URL (the bench's embedded server is reached through one too).
    SECRET_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
    DATA_DIR: dataDir,
    ...(process.env.BENCH_RATE_LIMIT_STORE
      ? { RATE_LIMIT_STORE: process.env.BENCH_RATE_LIMIT_STORE }
      : {}),
  };
  const startBinderyProcess = async (name) => {
    const port = await freePort();
    const logFile = path.join(RESULTS_DIR, `${stamp}-${name}.log`);
    const startedAt = performance.now();
    const child = startChild(name, [BINDERY_MAIN], logFile, { ...binderyEnv, PORT: String(port) });
    const url = `http://127.0.0.1:${port}`;
    await waitForHealth(child, `${url}/health`, 60_000);
    log(
      `${name} ready on ${url} in ${Math.round(performance.now() - startedAt)} ms (log: ${logFile})`,
    );
    return { child, url, logFile };
  };
  log('Bindery: LOG_LEVEL=warn, so request logging is off');
  const bindery = await startBinderyProcess('bindery');

  // 3. Seed through the admin API.
  const seed = await seedData(bindery.url, adminToken);
  log(
    `Seeded ${seed.users} users, ${seed.orgs} organizations and ${seed.spaces} spaces; benchmarking org ${seed.orgId}`,
  );

  // 4. The ceiling.
  const baselinePort = await freePort();
  const baselineLog = path.join(RESULTS_DIR, `${stamp}-baseline.log`);
  const baselineChild = startChild('baseline', [path.join(__dirname, 'baseline.js')], baselineLog, {
    DATABASE_URL: database.url,
    PORT: String(baselinePort),
    DATABASE_POOL_SIZE: String(POOL_SIZE),
  });
  const baseline = { child: baselineChild, url: `http://127.0.0.1:${baselinePort}` };
  await waitForHealth(baselineChild, `${baseline.url}/health`, 30_000);
  log(`Baseline (node:http + pg) ready on ${baseline.url} (log: ${baselineLog})`);

  // 5. Measure.
  const headers = { authorization: `Bearer ${seed.token}` };
  const only = process.env.BENCH_ONLY;
  const measured = [...READS, LIST].filter((read) => !only || read.name.includes(only));
  if (measured.length === 0) throw new Error(`BENCH_ONLY=${only} names none of the reads`);
  for (const read of measured) {
    await expectOk(`bindery ${read.name}`, bindery.url + read.path(seed), headers);
    await expectOk(`baseline ${read.name}`, baseline.url + read.path(seed), headers);
  }

  const loadBefore = os.loadavg()[0];
  log(
    `\nWarm-up: ${WARMUP} s per target; then ${ROUNDS} rounds of ${DURATION} s per run, ${CONNECTIONS} connections`,
  );
  if (loadBefore > os.cpus().length * 0.5) {
    log(
      `  note: 1-minute load average is ${loadBefore.toFixed(1)} on ${os.cpus().length} CPUs before measuring: other work on this machine skews the numbers`,
    );
  }
  for (const read of measured) {
    for (const server of [bindery, baseline])
      await load([server.url + read.path(seed)], headers, WARMUP);
    log(`  warmed up ${read.name}`);
  }

  const runs = [];
  const measure = async (label, servers, pathname, into = runs) => {
    await sleep(SETTLE_MS); // let the previous run's requests in flight drain
    const cpuBefore = servers.map((s) => cpuSeconds(s.child.pid));
    const results = await load(
      servers.map((s) => s.url + pathname),
      headers,
      DURATION,
    );
    const cpuAfter = servers.map((s) => cpuSeconds(s.child.pid));
    const run = combine(label, results);
    const cpu = cpuAfter.every((v, i) => v !== null && cpuBefore[i] !== null)
      ? cpuAfter.reduce((sum, v, i) => sum + v - cpuBefore[i], 0)
      : null;
    run.serverCpuMsPerRequest =
      cpu === null || run.requests === 0 ? null : (cpu * 1000) / run.requests;
    into.push(run);
    log(
      `  ${label}: ${run.reqPerSec.toFixed(0)} req/s, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms, non-2xx ${run.non2xx}, errors ${run.errors}`,
    );
    return run;
  };
  for (let round = 1; round <= ROUNDS; round++) {
    log(`Round ${round} of ${ROUNDS}`);
    // Alternate which goes first, so neither always follows the other's load.
    const order = round % 2 === 1 ? ['bindery', 'baseline'] : ['baseline', 'bindery'];
    for (const read of measured) {
      for (const who of order) {
        const run = await measure(
          `${who} ${read.name}`,
          [who === 'bindery' ? bindery : baseline],
          read.path(seed),
        );
        run.round = round;
      }
    }
  }

  // 6. Two API processes on the same database against one: the load split between them.
  const scaling = [];
  const second = only ? null : await startBinderyProcess('bindery-2');
  const orgPath = READS[0].path(seed);
  if (second) await load([second.url + orgPath], headers, WARMUP);
  for (let round = 1; second && round <= ROUNDS; round++) {
    for (const servers of round % 2 === 1
      ? [[bindery], [bindery, second]]
      : [[bindery, second], [bindery]]) {
      const label = `bindery ×${servers.length} ${READS[0].name}`;
      const run = await measure(label, servers, orgPath, scaling);
      run.round = round;
    }
  }

  // 7. Report.
  const report = buildReport(measured, runs, scaling, database, {
    bindery: bindery.logFile,
    baseline: baselineLog,
  });
  report.loadAverage = { beforeMeasuring: loadBefore, after: os.loadavg()[0] };
  printReport(report);
  const resultsFile = path.join(RESULTS_DIR, `${stamp}.json`);
  fs.writeFileSync(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
  log(`\nResults: ${resultsFile}`);
}

// ---------------------------------------------------------------- seed

async function seedData(baseUrl, adminToken) {
  const run = randomBytes(3).toString('hex');
  const users = [];
  for (let i = 0; i < USERS; i++) {
    const created = await api(
      baseUrl,
      'POST',
      '/v1/admin/users',
      adminToken,
      { email: `bench-${run}-${i}@example.com`, displayName: `Bench User ${i}` },
      201,
    );
    if (!created.user?.id || !created.token)
      throw new Error(`POST /v1/admin/users: unexpected body ${JSON.stringify(created)}`);
    users.push(created);
  }
  const org = await api(baseUrl, 'POST', '/v1/orgs', users[0].token, { title: 'Bench Org' }, 201);
  if (!org.id) throw new Error(`POST /v1/orgs: unexpected body ${JSON.stringify(org)}`);
  for (let i = 0; i < EXTRA_ORGS; i++) {
    const owner = users[(i % (USERS - 1)) + 1];
    await api(baseUrl, 'POST', '/v1/orgs', owner.token, { title: `Filler Org ${i}` }, 201);
  }
  // Spaces in the bench organization: some at the root, most in nested collections, so a
  // space's access walks its collection chain.
  const token = users[0].token;
  const orgPath = `/v1/orgs/${org.id}`;
  let parent;
  const collections = [];
  for (let i = 0; i < COLLECTIONS; i++) {
    const body = { title: `Collection ${i}`, ...(i % 2 === 1 && parent ? { parent } : {}) };
    const collection = await api(baseUrl, 'POST', `${orgPath}/collections`, token, body, 201);
    collections.push(collection.id);
    parent = collection.id;
  }
  let space;
  for (let i = 0; i < SPACES; i++) {
    const inCollection = i % 4 !== 0;
    const body = {
      title: `Space ${i}`,
      ...(inCollection ? { parent: collections[i % collections.length] } : {}),
    };
    space = await api(baseUrl, 'POST', `${orgPath}/spaces`, token, body, 201);
  }
  const changeRequest = await api(
    baseUrl,
    'POST',
    `/v1/spaces/${space.id}/change-requests`,
    token,
    { subject: 'Bench change request' },
    201,
  );
  return {
    users: users.length,
    orgs: EXTRA_ORGS + 1,
    spaces: SPACES,
    orgId: org.id,
    spaceId: space.id,
    changeRequestId: changeRequest.id,
    token,
  };
}

// ---------------------------------------------------------------- load

/** CONNECTIONS connections for `duration` seconds, shared evenly between the URLs. */
function load(urls, headers, duration) {
  const connections = Math.ceil(CONNECTIONS / urls.length);
  return Promise.all(
    urls.map((url) => autocannon({ url, headers, connections, duration, method: 'GET' })),
  );
}

/** One run's figures from autocannon's results (several at once: summed; latencies the worst). */
function combine(label, results) {
  const runs = results.map((result) =>
    summarize(label, result, { durationS: DURATION, connections: CONNECTIONS }),
  );
  if (runs.length === 1) return runs[0];
  const sum = (key) => runs.reduce((total, run) => total + run[key], 0);
  const worst = (key) => Math.max(...runs.map((run) => run[key]));
  return {
    ...runs[0],
    requests: sum('requests'),
    reqPerSec: sum('reqPerSec'),
    p50Ms: worst('p50Ms'),
    p90Ms: worst('p90Ms'),
    p99Ms: worst('p99Ms'),
    maxMs: worst('maxMs'),
    non2xx: sum('non2xx'),
    errors: sum('errors'),
    timeouts: sum('timeouts'),
    processes: runs.length,
  };
}

// ---------------------------------------------------------------- report

/** Runs of one label: req/s summed over rounds, median p99 and CPU ms/req. */
function totals(runs, label) {
  const mine = runs.filter((run) => run.target === label);
  const cpu = mine.map((run) => run.serverCpuMsPerRequest).filter((v) => v !== null);
  return {
    target: label,
    rounds: mine.length,
    reqPerSec: mine.reduce((sum, run) => sum + run.reqPerSec, 0) / mine.length,
    p99Ms: median(mine.map((run) => run.p99Ms)),
    cpuMsPerRequest: cpu.length ? median(cpu) : null,
    failures: mine.reduce((sum, run) => sum + run.non2xx + run.errors + run.timeouts, 0),
  };
}

function buildReport(measured, runs, scaling, database, logs) {
  const comparisons = READS.filter((read) => measured.includes(read)).map((read) => {
    const ours = totals(runs, `bindery ${read.name}`);
    const ceiling = totals(runs, `baseline ${read.name}`);
    const ratio = ours.reqPerSec / ceiling.reqPerSec;
    return {
      target: read.name,
      bindery: ours,
      baseline: ceiling,
      ratio,
      ratioMet: ratio >= TARGET_RATIO,
      p99Met: ours.p99Ms <= TARGET_P99_FACTOR * ceiling.p99Ms,
      cpuMet: ours.cpuMsPerRequest <= TARGET_CPU_FACTOR * ceiling.cpuMsPerRequest,
    };
  });
  // The page is held to the single space read's throughput, so it needs both measured.
  const listMeasured = measured.includes(LIST) && measured.includes(READS[1]);
  const list = listMeasured ? totals(runs, `bindery ${LIST.name}`) : null;
  const single = listMeasured ? totals(runs, `bindery ${READS[1].name}`) : null;
  const listComparison = listMeasured
    ? {
        target: LIST.name,
        bindery: list,
        baseline: totals(runs, `baseline ${LIST.name}`),
        ratioToSingleRead: list.reqPerSec / single.reqPerSec,
        met: list.reqPerSec / single.reqPerSec >= TARGET_LIST_RATIO,
      }
    : null;
  const one = scaling.length ? totals(scaling, `bindery ×1 ${READS[0].name}`) : null;
  const two = scaling.length ? totals(scaling, `bindery ×2 ${READS[0].name}`) : null;
  return {
    date: new Date().toISOString(),
    database: { kind: database.kind, name: database.name, description: database.description },
    node: process.version,
    cpus: os.cpus().length,
    settings: {
      durationS: DURATION,
      warmupS: WARMUP,
      rounds: ROUNDS,
      connections: CONNECTIONS,
      poolSize: POOL_SIZE,
      binderyLogLevel: 'warn',
      rateLimitStore: process.env.BENCH_RATE_LIMIT_STORE ?? 'process',
    },
    targets: {
      minRatio: TARGET_RATIO,
      maxP99Factor: TARGET_P99_FACTOR,
      maxCpuFactor: TARGET_CPU_FACTOR,
      minListRatio: TARGET_LIST_RATIO,
    },
    runs,
    scaling: { runs: scaling, oneProcess: one, twoProcesses: two },
    comparisons,
    list: listComparison,
    met:
      comparisons.every((c) => c.ratioMet && c.p99Met && c.cpuMet) &&
      (listComparison?.met ?? true) &&
      [...runs, ...scaling].every((run) => run.non2xx + run.errors + run.timeouts === 0),
    logs,
  };
}

function printReport(report) {
  const rows = [
    ['run', 'round', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'CPU μs/req'],
    ...[...report.runs, ...report.scaling.runs].map((r) => [
      r.target,
      String(r.round),
      r.reqPerSec.toFixed(0),
      String(r.p50Ms),
      String(r.p99Ms),
      String(r.non2xx),
      String(r.errors + r.timeouts),
      micros(r.serverCpuMsPerRequest),
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const line = (row) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  log(`\nDatabase: ${report.database.description}`);
  log(
    `Bindery LOG_LEVEL=warn (no request logs), rate limits counted in the ${report.settings.rateLimitStore} store; ` +
      `${report.settings.connections} connections, ${report.settings.durationS} s per run; ` +
      `${report.cpus} CPUs shared by the servers, the database and the load generator; ` +
      `load average ${report.loadAverage.beforeMeasuring.toFixed(1)} before, ${report.loadAverage.after.toFixed(1)} after\n`,
  );
  log(line(rows[0]));
  log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows.slice(1)) log(line(row));
  log(
    '(CPU μs/req: CPU time the server processes spent per request, their own cost, less sensitive to other load than req/s)\n',
  );
  const mark = (ok) => (ok ? 'PASS' : 'MISS');
  for (const c of report.comparisons) {
    log(
      `${c.target}: ${c.bindery.reqPerSec.toFixed(0)} against ${c.baseline.reqPerSec.toFixed(0)} req/s, ` +
        `Bindery/ceiling = ${c.ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}: ${mark(c.ratioMet)}), ` +
        `p99 ${c.bindery.p99Ms} ms against ${c.baseline.p99Ms} ms (target ≤ ${TARGET_P99_FACTOR}×: ${mark(c.p99Met)}), ` +
        `CPU ${micros(c.bindery.cpuMsPerRequest)} against ${micros(c.baseline.cpuMsPerRequest)} μs/req ` +
        `(target ≤ ${TARGET_CPU_FACTOR}×: ${mark(c.cpuMet)})`,
    );
  }
  const l = report.list;
  if (l)
    log(
      `${l.target}: ${l.bindery.reqPerSec.toFixed(0)} req/s, ${l.ratioToSingleRead.toFixed(2)}× the single space read ` +
        `(target ≥ ${TARGET_LIST_RATIO}: ${mark(l.met)}), p99 ${l.bindery.p99Ms} ms; the ceiling's page: ` +
        `${l.baseline.reqPerSec.toFixed(0)} req/s`,
    );
  const { oneProcess: one, twoProcesses: two } = report.scaling;
  if (one && two)
    log(
      `Two API processes against one (${READS[0].name}, the same ${CONNECTIONS} connections split between them): ` +
        `${two.reqPerSec.toFixed(0)} against ${one.reqPerSec.toFixed(0)} req/s (${(two.reqPerSec / one.reqPerSec).toFixed(2)}×), ` +
        `p99 ${two.p99Ms} against ${one.p99Ms} ms, failures ${two.failures + one.failures}`,
    );
  log(`Targets: ${mark(report.met)}`);
}

function micros(ms) {
  return ms === null ? 'n/a' : (ms * 1000).toFixed(0);
}

// ---------------------------------------------------------------- entry point

runMain(main);
