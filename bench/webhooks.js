'use strict';
/* global fetch */
/**
 * `node bench/webhooks.js` after `npm run build` (also run by `npm run bench`): what webhooks
 * cost writes, and how soon their events arrive. See bench/README.md, "Webhooks benchmark".
 *
 * 1. Write throughput: PATCH /v1/spaces/:id with a new title (each records a `space_updated`
 *    event) in an organization without webhooks and in one with 3 webhooks subscribed to
 *    everything (`*`), each pointing at its own receiver on loopback answering 200; same
 *    Bindery API process, same database, alternately, each warmed up. Background jobs (the
 *    dispatch and the deliveries) run in a worker process (`dist/src/worker.js`, the API with
 *    JOBS_IN_PROCESS=false), or with BENCH_WEBHOOKS_JOBS=in-process in the API process.
 * 2. Delivery lag: at a steady rate (50 writes/s) in the organization with webhooks, the time
 *    from the event's `occurredAt` to its arrival at a receiver, for every delivery.
 *
 * The receivers run in a process of their own (this file with `receivers`), the API and the
 * worker in theirs, the load generator here.
 *
 * Env: DATABASE_URL (PostgreSQL server for a throwaway database; unset = embedded PGlite in
 * this process), BENCH_DURATION (seconds per throughput run, default 10), BENCH_CONNECTIONS
 * (default 16), BENCH_WARMUP (seconds, default 5), BENCH_WEBHOOKS_RATE (writes/s of the lag
 * run, default 50), BENCH_WEBHOOKS_LAG_SECONDS (default 20), BENCH_WEBHOOKS_PAIRS (runs
 * without and with webhooks, alternately, default 3), BENCH_WEBHOOKS_JOBS (`worker`, the
 * default, or `in-process`), BENCH_WEBHOOKS_PAUSE_WORKER (`true`: the worker stopped during the
 * runs with webhooks, so they measure the write path alone), BENCH_NODE_ARGS (options of the
 * child Node processes).
 */
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { fork } = require('node:child_process');
const { performance } = require('node:perf_hooks');

const WEBHOOKS = 3;
const SPACES = 32;
const TARGET_RATIO = 0.9;
const TARGET_P95_MS = 1000;

if (process.argv[2] === 'receivers') {
  runReceivers();
} else {
  const lib = require('./lib');
  lib.runMain(() => main(lib));
}

async function main(lib) {
  const autocannon = require('autocannon');
  const { positiveNumber, log, sleep, cleanups, api, summarize, cpuSeconds, RESULTS_DIR } = lib;
  const DURATION = positiveNumber('BENCH_DURATION', 10);
  const CONNECTIONS = Math.ceil(positiveNumber('BENCH_CONNECTIONS', 16));
  const WARMUP = positiveNumber('BENCH_WARMUP', 5);
  const RATE = positiveNumber('BENCH_WEBHOOKS_RATE', 50);
  const LAG_SECONDS = positiveNumber('BENCH_WEBHOOKS_LAG_SECONDS', 20);
  const PAIRS = Math.ceil(positiveNumber('BENCH_WEBHOOKS_PAIRS', 3));
  // The worker stopped (SIGSTOP) during the runs with webhooks, continued before the drain: what
  // the write path alone pays for webhooks, apart from the CPU the deliveries take beside it.
  const PAUSE_WORKER = process.env.BENCH_WEBHOOKS_PAUSE_WORKER === 'true';
  const JOBS = process.env.BENCH_WEBHOOKS_JOBS || 'worker';
  if (!['worker', 'in-process'].includes(JOBS)) {
    throw new Error(`BENCH_WEBHOOKS_JOBS is worker or in-process (got ${JOBS})`);
  }
  if (PAUSE_WORKER && JOBS !== 'worker') {
    throw new Error('BENCH_WEBHOOKS_PAUSE_WORKER needs the worker process (BENCH_WEBHOOKS_JOBS)');
  }

  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const loadAtStart = os.loadavg();
  const database = process.env.DATABASE_URL
    ? await lib.createPostgresDatabase(process.env.DATABASE_URL)
    : await lib.startEmbeddedDatabase(
        'embedded PGlite (in memory, served from this bench process): every query is serialized ' +
          'through one WASM engine that shares a CPU with the load generator. Set DATABASE_URL ' +
          'for a real PostgreSQL run',
      );
  log(`Database: ${database.description}`);
  log(`Jobs: ${JOBS === 'worker' ? 'a worker process' : 'in the API process'}`);
  if (PAUSE_WORKER) log('The worker is stopped during the runs with webhooks (write path only)');

  const receivers = await startReceivers(cleanups);
  log(`Receivers (own process): ${receivers.urls.join(', ')}`);
  const inProcess = JOBS === 'in-process';
  const bindery = await lib.startBindery(database, 'webhooks', stamp, {
    OUTBOUND_ALLOW_PRIVATE: 'true',
    JOBS_IN_PROCESS: String(inProcess),
  });
  log(`Bindery: ${bindery.baseUrl} (log ${bindery.logFile})`);
  let worker;
  if (!inProcess) {
    const workerLog = path.join(RESULTS_DIR, `${stamp}-webhooks-worker.log`);
    worker = lib.startChild(
      'worker',
      [path.join(lib.ROOT, 'dist', 'src', 'worker.js')],
      workerLog,
      {
        ...bindery.env,
        JOBS_IN_PROCESS: 'true',
      },
    );
    log(`Worker (own process, the API has JOBS_IN_PROCESS=false): log ${workerLog}`);
  }
  const cpuOf = () => cpuSeconds(bindery.child.pid) + (worker ? cpuSeconds(worker.pid) : 0);

  // Two organizations of one user: one without webhooks, one with three.
  const quiet = await lib.createOrganization(bindery.baseUrl, bindery.adminToken, 'quiet');
  const hooked = {
    token: quiet.token,
    org: await api(bindery.baseUrl, 'POST', '/v1/orgs', quiet.token, { title: 'Hooked' }, 201),
  };
  for (const side of [quiet, hooked]) {
    side.spaces = [];
    for (let i = 0; i < SPACES; i++) {
      const space = await api(
        bindery.baseUrl,
        'POST',
        `/v1/orgs/${side.org.id}/spaces`,
        side.token,
        { title: `Space ${i}`, empty: true },
        201,
      );
      side.spaces.push(space.id);
    }
  }
  for (const url of receivers.urls) {
    await api(
      bindery.baseUrl,
      'POST',
      `/v1/orgs/${hooked.org.id}/webhooks`,
      hooked.token,
      { url, events: ['*'] },
      201,
    );
  }
  await waitFor(async () => (await receivers.stats()).count >= WEBHOOKS, 30_000, 'the pings');

  let written = 0;
  const patchRequests = (side) => [
    {
      method: 'PATCH',
      setupRequest: (request) => {
        written += 1;
        const spaceId = side.spaces[written % side.spaces.length];
        return {
          ...request,
          path: `/v1/spaces/${spaceId}`,
          body: JSON.stringify({ title: `Title ${written}` }),
        };
      },
    },
  ];
  const cannon = (side, seconds) =>
    autocannon({
      url: bindery.baseUrl,
      connections: CONNECTIONS,
      duration: seconds,
      headers: { authorization: `Bearer ${side.token}`, 'content-type': 'application/json' },
      requests: patchRequests(side),
    });

  /** Waits until every delivery of the writes made in `hooked` so far has arrived. */
  const drained = async (expected) => {
    const started = performance.now();
    await waitFor(
      async () => (await receivers.stats()).count >= expected,
      300_000,
      `${expected} deliveries`,
    );
    return performance.now() - started;
  };

  // Warm-up, both sides.
  log(`Warming up (${WARMUP} s each)…`);
  await receivers.reset();
  await cannon(quiet, WARMUP);
  const warm = await cannon(hooked, WARMUP);
  await drained(warm.requests.total * WEBHOOKS);

  const runs = [];
  const sides = Array.from({ length: PAIRS }, () => [
    ['no webhooks', quiet],
    [`${WEBHOOKS} webhooks`, hooked],
  ]).flat();
  for (const [name, side] of sides) {
    await receivers.reset();
    const cpuBefore = cpuOf();
    const apiCpuBefore = cpuSeconds(bindery.child.pid);
    const paused = PAUSE_WORKER && side === hooked;
    if (paused) worker.kill('SIGSTOP');
    const result = await cannon(side, DURATION);
    if (paused) worker.kill('SIGCONT');
    const apiCpu = cpuSeconds(bindery.child.pid) - apiCpuBefore;
    const ok = result['2xx'];
    const drainMs = side === hooked ? await drained(ok * WEBHOOKS) : 0;
    const cpuAfter = cpuOf() - cpuBefore;
    const run = {
      ...summarize(`PATCH /v1/spaces/:id, ${name}`, result, {
        durationS: DURATION,
        connections: CONNECTIONS,
      }),
      apiCpuMsPerWrite: (apiCpu * 1000) / Math.max(1, result.requests.total),
      cpuMsPerWriteWithDeliveries: (cpuAfter * 1000) / Math.max(1, result.requests.total),
      drainMs,
    };
    runs.push(run);
    log(
      `${run.target.padEnd(40)} ${run.reqPerSec.toFixed(0).padStart(6)} writes/s  ` +
        `p50 ${run.p50Ms} ms  p99 ${run.p99Ms} ms  non-2xx ${run.non2xx}  ` +
        `CPU API ${run.apiCpuMsPerWrite.toFixed(2)}, all ${run.cpuMsPerWriteWithDeliveries.toFixed(2)} ms/write` +
        (drainMs ? `  (deliveries done ${(drainMs / 1000).toFixed(1)} s after the run)` : ''),
    );
    await sleep(1000);
  }
  const mean = (items) => items.reduce((sum, run) => sum + run.reqPerSec, 0) / items.length;
  const ratio = mean(runs.filter((_, i) => i % 2 === 1)) / mean(runs.filter((_, i) => i % 2 === 0));
  const pairRatios = Array.from(
    { length: PAIRS },
    (_, i) => runs[2 * i + 1].reqPerSec / runs[2 * i].reqPerSec,
  );

  // Delivery lag at a steady rate.
  log(`\nDelivery lag: ${RATE} writes/s for ${LAG_SECONDS} s…`);
  await receivers.reset();
  const interval = 1000 / RATE;
  const total = Math.round(RATE * LAG_SECONDS);
  const started = performance.now();
  const writes = [];
  let failures = 0;
  for (let i = 0; i < total; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const spaceId = hooked.spaces[i % hooked.spaces.length];
    writes.push(
      fetch(`${bindery.baseUrl}/v1/spaces/${spaceId}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${hooked.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Steady ${i}` }),
      }).then((response) => {
        if (response.status !== 200) failures += 1;
        return response.arrayBuffer();
      }),
    );
  }
  await Promise.all(writes);
  const achievedRate = total / ((performance.now() - started) / 1000);
  await drained((total - failures) * WEBHOOKS);
  const lag = await receivers.stats();

  const report = {
    date: new Date().toISOString(),
    database: { kind: database.kind, description: database.description },
    node: process.version,
    cpus: os.cpus().length,
    loadAverage: { atStart: loadAtStart, atEnd: os.loadavg() },
    settings: {
      jobs: JOBS,
      duration: DURATION,
      connections: CONNECTIONS,
      warmup: WARMUP,
      webhooks: WEBHOOKS,
      pairs: PAIRS,
      pauseWorker: PAUSE_WORKER,
    },
    throughput: { runs, ratio, pairRatios, target: TARGET_RATIO },
    lag: {
      rate: RATE,
      achievedRate,
      writes: total,
      failedWrites: failures,
      deliveries: lag.count,
      p50Ms: lag.p50,
      p95Ms: lag.p95,
      p99Ms: lag.p99,
      maxMs: lag.max,
      targetP95Ms: TARGET_P95_MS,
    },
    logs: { bindery: bindery.logFile },
  };
  log(
    `\nThroughput with ${WEBHOOKS} webhooks / without: ${(ratio * 100).toFixed(1)} % ` +
      `(target ≥ ${TARGET_RATIO * 100} %): ${ratio >= TARGET_RATIO ? 'PASS' : 'MISS'}; ` +
      `pair by pair: ${pairRatios.map((each) => `${(each * 100).toFixed(0)} %`).join(', ')}`,
  );
  log(
    `Delivery lag at ${achievedRate.toFixed(1)} writes/s (${lag.count} deliveries of ${total} ` +
      `writes, ${failures} failed): p50 ${lag.p50} ms, p95 ${lag.p95} ms, p99 ${lag.p99} ms, ` +
      `max ${lag.max} ms (target p95 < ${TARGET_P95_MS} ms): ` +
      `${lag.p95 < TARGET_P95_MS ? 'PASS' : 'MISS'}`,
  );
  log(
    `Load average: ${loadAtStart.map((n) => n.toFixed(2)).join(' ')} → ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  const resultsFile = path.join(RESULTS_DIR, `${stamp}-webhooks.json`);
  fs.writeFileSync(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
  log(`Results: ${resultsFile}`);

  async function waitFor(condition, timeoutMs, what) {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
      await sleep(50);
    }
  }
}

/** The receivers' process, driven over IPC: `reset`, `stats`. */
function startReceivers(cleanups) {
  const child = fork(path.join(__dirname, 'webhooks.js'), ['receivers'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  cleanups.push(() => child.kill('SIGTERM'));
  const pending = new Map();
  let next = 0;
  const ask = (command) =>
    new Promise((resolve) => {
      const id = ++next;
      pending.set(id, resolve);
      child.send({ id, command });
    });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`The receivers exited (${code})`)));
    child.on('message', (message) => {
      if (message.urls) {
        resolve({ urls: message.urls, reset: () => ask('reset'), stats: () => ask('stats') });
        return;
      }
      pending.get(message.id)?.(message.answer);
      pending.delete(message.id);
    });
  });
}

/**
 * Three endpoints on 127.0.0.1 answering 200, each noting when every delivery arrived and the
 * lag from its event's `occurredAt`.
 */
async function runReceivers() {
  // The receivers stand for endpoints on other machines: they take what CPU is left.
  os.setPriority(19);
  let lags = [];
  const servers = [];
  for (let i = 0; i < WEBHOOKS; i++) {
    const server = http.createServer((req, res) => {
      const chunks = [];
      req.on('data', (chunk) => chunks.push(chunk));
      req.on('end', () => {
        const arrived = Date.now();
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          if (body.type !== 'ping') lags.push(arrived - Date.parse(body.occurredAt));
          else lags.push(0);
        } catch {
          // Not an event: not counted.
        }
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      });
    });
    server.keepAliveTimeout = 60_000;
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
  }
  process.on('message', ({ id, command }) => {
    if (command === 'reset') lags = [];
    const sorted = [...lags].sort((a, b) => a - b);
    const at = (p) =>
      sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : 0;
    process.send({
      id,
      answer: {
        count: sorted.length,
        p50: at(0.5),
        p95: at(0.95),
        p99: at(0.99),
        max: sorted.at(-1) ?? 0,
      },
    });
  });
  process.on('SIGTERM', () => process.exit(0));
  process.send({ urls: servers.map((server) => `http://127.0.0.1:${server.address().port}/hook`) });
}
