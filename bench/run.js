'use strict';
/**
 * `npm run bench`: Bindery against a bare Express + pg baseline (bench/baseline.js) on the
 * same database. See bench/README.md.
 *
 * Env: DATABASE_URL (a PostgreSQL server to create a throwaway database on; unset = embedded
 * PGlite in this process), BENCH_DURATION (seconds per measured run, default 10),
 * BENCH_CONNECTIONS (default 64), BENCH_WARMUP (seconds, default 5).
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
} = require('./lib');

const DURATION = positiveNumber('BENCH_DURATION', 10);
const CONNECTIONS = Math.ceil(positiveNumber('BENCH_CONNECTIONS', 64));
// Long enough for the JIT to settle and the pools to fill; 2 s left the first target's figures unstable.
const WARMUP = positiveNumber('BENCH_WARMUP', 5);
const USERS = 50;
const EXTRA_ORGS = 20;
const COLLECTIONS = 10;
// Measured and reported, not held to the baseline ratio: they do more work than the baseline's
// one query (a collection-chain walk; a page of 50 spaces with their access in two queries).
const INFORMATIONAL = new Set([
  'bindery GET /v1/spaces/:id',
  'bindery GET /v1/orgs/:id/spaces?limit=50',
]);
const SPACES = 200;
const POOL_SIZE = 10;
const TARGET_RATIO = 0.6;
const TARGET_P99_MS = 25;
const SETTLE_MS = 1000;

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
  const binderyPort = await freePort();
  const binderyLog = path.join(RESULTS_DIR, `${stamp}-bindery.log`);
  log(`Bindery log (LOG_LEVEL=warn, so request logging is off): ${binderyLog}`);
  const startedAt = performance.now();
  const bindery = startChild('bindery', [BINDERY_MAIN], binderyLog, {
    DATABASE_URL: database.url,
    // The bench's embedded server shares one backend session between connections, where
    // named prepared statements would collide (Bindery turns them off on its own embedded one).
    DATABASE_PREPARED_STATEMENTS: String(database.kind === 'postgresql'),
    PORT: String(binderyPort),
    HOST: '127.0.0.1',
    SEED_DEMO: 'false',
    ADMIN_TOKEN: adminToken,
    // Required with DATABASE_URL (the bench's embedded server is reached through one too).
    SECRET_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
    DATA_DIR: dataDir,
  });
  const binderyUrl = `http://127.0.0.1:${binderyPort}`;
  await waitForHealth(bindery, `${binderyUrl}/health`, 60_000);
  log(`Bindery ready on ${binderyUrl} in ${Math.round(performance.now() - startedAt)} ms`);

  // 3. Seed through the admin API.
  const seed = await seedData(binderyUrl, adminToken);
  log(
    `Seeded ${seed.users} users, ${seed.orgs} organizations and ${seed.spaces} spaces; benchmarking org ${seed.orgId}`,
  );

  // 4. Baseline.
  const baselinePort = await freePort();
  const baselineLog = path.join(RESULTS_DIR, `${stamp}-baseline.log`);
  const baseline = startChild('baseline', [path.join(__dirname, 'baseline.js')], baselineLog, {
    DATABASE_URL: database.url,
    PORT: String(baselinePort),
    DATABASE_POOL_SIZE: String(POOL_SIZE),
  });
  const baselineUrl = `http://127.0.0.1:${baselinePort}`;
  await waitForHealth(baseline, `${baselineUrl}/health`, 30_000);
  log(`Baseline ready on ${baselineUrl} (log: ${baselineLog})`);

  // 5. Measure.
  const headers = { authorization: `Bearer ${seed.token}` };
  const targets = {
    'bindery GET /v1/orgs/:id': `${binderyUrl}/v1/orgs/${seed.orgId}`,
    'bindery GET /v1/user': `${binderyUrl}/v1/user`,
    'baseline GET /v1/orgs/:id': `${baselineUrl}/v1/orgs/${seed.orgId}`,
    'bindery GET /v1/spaces/:id': `${binderyUrl}/v1/spaces/${seed.spaceId}`,
    'bindery GET /v1/orgs/:id/spaces?limit=50': `${binderyUrl}/v1/orgs/${seed.orgId}/spaces?limit=50`,
  };
  for (const [name, url] of Object.entries(targets)) await expectOk(name, url, headers);

  const loadBefore = os.loadavg()[0];
  log(`\nWarm-up: ${WARMUP} s per target; then ${DURATION} s per run, ${CONNECTIONS} connections`);
  if (loadBefore > os.cpus().length * 0.5) {
    log(
      `  note: 1-minute load average is ${loadBefore.toFixed(1)} on ${os.cpus().length} CPUs before measuring: other work on this machine skews the numbers`,
    );
  }
  for (const [name, url] of Object.entries(targets)) {
    await load(url, headers, WARMUP);
    log(`  warmed up ${name}`);
  }

  const plan = [
    'bindery GET /v1/orgs/:id',
    'baseline GET /v1/orgs/:id',
    'bindery GET /v1/user',
    'baseline GET /v1/orgs/:id',
    'bindery GET /v1/spaces/:id',
    'bindery GET /v1/orgs/:id/spaces?limit=50',
  ];
  const runs = [];
  for (const name of plan) {
    await sleep(SETTLE_MS); // let the previous run's requests in flight drain
    const server = name.startsWith('bindery') ? bindery : baseline;
    const cpuBefore = cpuSeconds(server.pid);
    const result = await load(targets[name], headers, DURATION);
    const cpuAfter = cpuSeconds(server.pid);
    const run = summarize(name, result, { durationS: DURATION, connections: CONNECTIONS });
    run.serverCpuMsPerRequest =
      cpuBefore === null || cpuAfter === null || run.requests === 0
        ? null
        : ((cpuAfter - cpuBefore) * 1000) / run.requests;
    runs.push(run);
    log(
      `  ${name}: ${run.reqPerSec.toFixed(0)} req/s, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms, non-2xx ${run.non2xx}, errors ${run.errors}`,
    );
  }

  // 6. Report.
  const report = buildReport(runs, database, { bindery: binderyLog, baseline: baselineLog });
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
  return {
    users: users.length,
    orgs: EXTRA_ORGS + 1,
    spaces: SPACES,
    orgId: org.id,
    spaceId: space.id,
    token,
  };
}

// ---------------------------------------------------------------- load

function load(url, headers, duration) {
  return autocannon({ url, headers, connections: CONNECTIONS, duration, method: 'GET' });
}

// ---------------------------------------------------------------- report

function buildReport(runs, database, logs) {
  const baselineRuns = runs.filter((r) => r.target.startsWith('baseline'));
  const baselineReqPerSec =
    baselineRuns.reduce((sum, r) => sum + r.reqPerSec, 0) / baselineRuns.length;
  const comparisons = runs
    .filter((r) => r.target.startsWith('bindery') && !INFORMATIONAL.has(r.target))
    .map((r) => {
      const ratio = r.reqPerSec / baselineReqPerSec;
      return {
        target: r.target,
        ratio,
        p99Ms: r.p99Ms,
        ratioMet: ratio >= TARGET_RATIO,
        p99Met: r.p99Ms <= TARGET_P99_MS,
      };
    });
  return {
    date: new Date().toISOString(),
    database: { kind: database.kind, name: database.name, description: database.description },
    node: process.version,
    cpus: os.cpus().length,
    settings: {
      durationS: DURATION,
      warmupS: WARMUP,
      connections: CONNECTIONS,
      poolSize: POOL_SIZE,
      binderyLogLevel: 'warn',
    },
    targets: { minRatio: TARGET_RATIO, maxP99Ms: TARGET_P99_MS },
    runs,
    baselineReqPerSec,
    comparisons,
    met: comparisons.every((c) => c.ratioMet && c.p99Met),
    logs,
  };
}

function printReport(report) {
  const rows = [
    ['target', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'CPU ms/req'],
    ...report.runs.map((r) => [
      r.target,
      r.reqPerSec.toFixed(0),
      String(r.p50Ms),
      String(r.p99Ms),
      String(r.non2xx),
      String(r.errors + r.timeouts),
      r.serverCpuMsPerRequest === null ? 'n/a' : r.serverCpuMsPerRequest.toFixed(2),
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const line = (row) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  log(`\nDatabase: ${report.database.description}`);
  log(
    `Bindery LOG_LEVEL=warn (no request logs); ${report.settings.connections} connections, ` +
      `${report.settings.durationS} s per run; ${report.cpus} CPUs shared by both servers, the database and the load generator; ` +
      `load average ${report.loadAverage.beforeMeasuring.toFixed(1)} before, ${report.loadAverage.after.toFixed(1)} after\n`,
  );
  log(line(rows[0]));
  log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows.slice(1)) log(line(row));
  log(
    '(CPU ms/req: CPU time the server process spent per request, its own cost, less sensitive to other load than req/s)',
  );
  log(`\nBaseline mean: ${report.baselineReqPerSec.toFixed(0)} req/s`);
  for (const c of report.comparisons) {
    log(
      `${c.target}: Bindery/baseline = ${c.ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}: ${c.ratioMet ? 'PASS' : 'MISS'}), ` +
        `p99 ${c.p99Ms} ms (target ≤ ${TARGET_P99_MS} ms: ${c.p99Met ? 'PASS' : 'MISS'})`,
    );
  }
  log(`Targets: ${report.met ? 'PASS' : 'MISS'}`);
}

// ---------------------------------------------------------------- entry point

runMain(main);
