'use strict';
/* global fetch, setInterval, clearInterval */
/**
 * `node bench/git-import-scale.js` after `npm run build`: a Git import at the size of a large
 * documentation site, and what the other requests of the API see meanwhile. Generates (with
 * `git fast-import`) a repository in GitBook's Git Sync layout of GIT_SCALE_PAGES pages (parts
 * of ten chapters of ten pages, a few paragraphs each, links to the next page) and
 * GIT_SCALE_FILES images, serves it with `git http-backend` (git-server.js), starts Bindery on
 * its own database (the embedded one inside Bindery's process, as `npm start` runs it, or a
 * throwaway PostgreSQL database with DATABASE_URL), and measures:
 *
 * 1. a file of GIT_SCALE_FILE_MB MiB imported into an empty space: the time, and Bindery's
 *    resident memory at its peak during the import over what it was before;
 * 2. the large repository imported into an empty space while reads (a page, the
 *    organization's spaces, a space) are sent one every 20 ms, whether the last was answered
 *    or not: their latency when idle (before and after) and during the import, until the search
 *    index has every page; the import's time, and the search index's after it.
 *
 * Env: DATABASE_URL (PostgreSQL server for a throwaway database; unset = the embedded database
 * in Bindery's process), GIT_SCALE_PAGES (default 10000), GIT_SCALE_FILES (default 2000),
 * GIT_SCALE_FILE_MB (default 100). See bench/README.md, "Git import at scale".
 */
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const {
  RESULTS_DIR,
  BINDERY_MAIN,
  positiveNumber,
  log,
  sleep,
  cleanups,
  runMain,
  checkInterrupted,
  createPostgresDatabase,
  startChild,
  waitForHealth,
  freePort,
  createOrganization,
  api,
} = require('./lib');
const { startGitServer } = require('./git-server');
const { writeRepository, noise } = require('./generated-repository');

const PAGES = Math.ceil(positiveNumber('GIT_SCALE_PAGES', 10_000));
const FILES = Math.ceil(positiveNumber('GIT_SCALE_FILES', 2_000));
const FILE_MB = positiveNumber('GIT_SCALE_FILE_MB', 100);
const INTERVAL_MS = 20;
const IDLE_MS = 15_000;
const TIMEOUT_MS = 60 * 60 * 1000;

async function main() {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const server = await startGitServer();
  cleanups.push(() => server.close());

  const started = performance.now();
  const bigRepo = server.createRepository('big');
  writeRepository(server.bare('big'), {
    pages: 3,
    files: 0,
    extra: { '.gitbook/assets/recording.mp4': noise('recording', FILE_MB * 1024 * 1024) },
  });
  const scaleRepo = server.createRepository('scale');
  const generated = writeRepository(server.bare('scale'), { pages: PAGES, files: FILES });
  log(
    `Repositories: ${generated.pages} pages in ${generated.groups} parts and ${generated.files} ` +
      `images (${mb(generated.bytes)}), and one file of ${FILE_MB} MiB, generated in ` +
      `${s(performance.now() - started)}`,
  );

  const bindery = await startBindery(stamp);
  log(`Bindery on ${bindery.database} (log: ${bindery.logFile})`);
  const { token, org } = await createOrganization(bindery.baseUrl, bindery.adminToken, 'scale');
  const call = async (method, pathname, body, expected) => {
    if (expected !== 204) return api(bindery.baseUrl, method, pathname, token, body, expected);
    const response = await fetch(`${bindery.baseUrl}${pathname}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 204) {
      throw new Error(`${method} ${pathname}: ${response.status} ${await response.text()}`);
    }
    return undefined;
  };
  const newSpace = async (title) =>
    (await call('POST', `/v1/orgs/${org.id}/spaces`, { title, empty: true }, 201)).id;

  // 1. The large file, first: Bindery's memory has not grown for anything else yet.
  const bigSpace = await newSpace('Big file');
  const rssBefore = memory(bindery.child.pid).rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, memory(bindery.child.pid).rss);
  }, 25);
  const big = await operate(call, bigSpace, { url: bigRepo, ref: 'main' });
  clearInterval(sampler);
  const file = { mib: FILE_MB, seconds: big.seconds, rssBeforeMb: mbOf(rssBefore) };
  file.rssPeakOverMb = mbOf(rssPeak - rssBefore);
  log(
    `File of ${FILE_MB} MiB imported in ${big.seconds.toFixed(1)} s; Bindery's resident memory ` +
      `${mbOf(rssBefore)} MB before, at most ${file.rssPeakOverMb} MB more during the import`,
  );

  // 2. The large repository, under a steady load of reads.
  const handbook = await call('POST', `/v1/orgs/${org.id}/spaces`, { title: 'Handbook' }, 201);
  const pages = await call('GET', `/v1/spaces/${handbook.id}/content`, undefined, 200);
  const reads = [
    `/v1/spaces/${handbook.id}/content/page/${pages.pages[0].id}`,
    `/v1/orgs/${org.id}/spaces`,
    `/v1/spaces/${handbook.id}`,
  ];
  await load(bindery.baseUrl, token, reads, sleep(2000));
  const idleBefore = await load(bindery.baseUrl, token, reads, sleep(IDLE_MS));
  log(`Idle: ${describe(idleBefore)}`);
  const spaceId = await newSpace('Imported');
  const importStart = performance.now();
  const progress = [];
  let imported;
  const finished = (async () => {
    const operation = await operate(call, spaceId, { url: scaleRepo, ref: 'main' }, (p) =>
      progress.push(p),
    );
    imported = performance.now();
    // The search index follows the import: done once the last page is found.
    const last = encodeURIComponent(`"Page ${PAGES - 1}"`);
    for (const deadline = Date.now() + TIMEOUT_MS; Date.now() < deadline; await sleep(500)) {
      const hits = await call('GET', `/v1/spaces/${spaceId}/search?query=${last}`, undefined, 200);
      if (hits.items.some((hit) => hit.title === `Page ${PAGES - 1}`)) return operation;
    }
    throw new Error('The search index did not catch up');
  })();
  const during = await load(bindery.baseUrl, token, reads, finished);
  const operation = await finished;
  const indexed = performance.now();
  const idleAfter = await load(bindery.baseUrl, token, reads, sleep(IDLE_MS));
  const result = {
    database: bindery.database,
    repository: generated,
    file,
    import: {
      seconds: round((imported - importStart) / 1000),
      searchIndexSeconds: round((indexed - imported) / 1000),
      progress: operation.progress,
      progressSeen: progress.length,
      rssPeakMb: mbOf(memory(bindery.child.pid).hwm),
    },
    latencyMs: {
      idleBefore: percentiles(idleBefore),
      during: percentiles(during),
      duringImport: percentiles(sentBetween(during, importStart, imported)),
      duringSearchIndex: percentiles(sentBetween(during, imported, indexed)),
      idleAfter: percentiles(idleAfter),
    },
    load: os.loadavg(),
  };
  // Against the idle p99 of both idle windows together (1,400 reads): the p99 of one window
  // of 700 is its seventh slowest read, which one pause of the process moves by half (either
  // window has come out the higher); each window's ratio is reported too.
  result.latencyMs.idle = percentiles([...idleBefore, ...idleAfter]);
  result.p99Ratio = round(result.latencyMs.during.p99 / result.latencyMs.idle.p99);
  result.p99RatioBefore = round(result.latencyMs.during.p99 / result.latencyMs.idleBefore.p99);
  result.p99RatioAfter = round(result.latencyMs.during.p99 / result.latencyMs.idleAfter.p99);
  // Where the slow reads fall: per 10 s from the import's start, the reads over 3× the idle
  // p99 (the import ends at result.import.seconds).
  const slow = 3 * result.latencyMs.idle.p99;
  result.slowReadsPer10s = {};
  during.forEach((ms, i) => {
    if (ms <= slow) return;
    const bucket = Math.floor((during.sentAt[i] - importStart) / 10_000) * 10;
    result.slowReadsPer10s[bucket] = (result.slowReadsPer10s[bucket] ?? 0) + 1;
  });
  log(
    `Import of ${generated.pages} pages and ${generated.files} images: ${result.import.seconds} s, ` +
      `then the search index ${result.import.searchIndexSeconds} s; progress ` +
      `${JSON.stringify(operation.progress)}`,
  );
  log(`During: ${describe(during)}`);
  log(`  the import: ${describe(sentBetween(during, importStart, imported))}`);
  log(`  the search index after it: ${describe(sentBetween(during, imported, indexed))}`);
  log(`Idle after: ${describe(idleAfter)}`);
  log(
    `p99 during / idle p99 (both windows, ${result.latencyMs.idle.p99} ms): ${result.p99Ratio}× ` +
      `(before only: ${result.p99RatioBefore}×, after only: ${result.p99RatioAfter}×; ` +
      `Bindery's peak memory ${result.import.rssPeakMb} MB)`,
  );
  const report = path.join(RESULTS_DIR, `${stamp}-git-import-scale.json`);
  fs.writeFileSync(report, `${JSON.stringify(result, null, 2)}\n`);
  log(`Results: ${report}`);
}

/** Bindery as `npm start` runs it: the embedded database in its process, or PostgreSQL. */
async function startBindery(stamp) {
  const adminToken = randomBytes(36).toString('base64url');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-bench-scale-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const env = {
    SEED_DEMO: 'false',
    ADMIN_TOKEN: adminToken,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    DATA_DIR: dataDir,
  };
  let database = 'the embedded database (in Bindery’s process, files in a temporary folder)';
  if (process.env.DATABASE_URL) {
    const created = await createPostgresDatabase(process.env.DATABASE_URL);
    Object.assign(env, {
      DATABASE_URL: created.url,
      SECRET_KEY: randomBytes(32).toString('hex'),
    });
    database = created.description;
  }
  const port = await freePort();
  const logFile = path.join(RESULTS_DIR, `${stamp}-git-import-scale-bindery.log`);
  const child = startChild('bindery', [BINDERY_MAIN], logFile, {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealth(child, `${baseUrl}/health/ready`, 120_000);
  return { baseUrl, adminToken, child, logFile, database };
}

/** Runs an import into `spaceId` to its end; answers its last operation and its duration. */
async function operate(call, spaceId, body, onProgress) {
  const started = performance.now();
  await call('POST', `/v1/spaces/${spaceId}/git/import`, body, 204);
  for (const deadline = Date.now() + TIMEOUT_MS; Date.now() < deadline; await sleep(250)) {
    checkInterrupted('importing');
    const { lastOperation } = await call('GET', `/v1/spaces/${spaceId}/git/info`, undefined, 200);
    if (lastOperation.progress) onProgress?.(lastOperation.progress);
    if (lastOperation.status === 'complete') {
      return { ...lastOperation, seconds: (performance.now() - started) / 1000 };
    }
    if (lastOperation.status !== 'pending' && lastOperation.status !== 'running') {
      throw new Error(`The import ended ${lastOperation.status}: ${lastOperation.error ?? ''}`);
    }
  }
  throw new Error('The import did not end');
}

/**
 * Sends the reads in turn, one every INTERVAL_MS whether or not the last was answered, until
 * `until` settles; answers their latencies in milliseconds.
 */
async function load(baseUrl, token, reads, until) {
  const latencies = [];
  const sentAt = [];
  const pending = [];
  let done = false;
  until.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; !done; i++) {
    const started = performance.now();
    pending.push(
      fetch(`${baseUrl}${reads[i % reads.length]}`, {
        headers: { authorization: `Bearer ${token}` },
      }).then(async (response) => {
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`A read answered ${response.status}`);
        latencies.push(performance.now() - started);
        sentAt.push(started);
      }),
    );
    await sleep(INTERVAL_MS);
  }
  await Promise.all(pending);
  latencies.sentAt = sentAt;
  return latencies;
}

/** The latencies of `latencies` (load's) whose reads were sent in [from, to). */
function sentBetween(latencies, from, to) {
  return latencies.filter((_, i) => latencies.sentAt[i] >= from && latencies.sentAt[i] < to);
}

function percentiles(latencies) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q) => round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]);
  return {
    requests: sorted.length,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: round(sorted[sorted.length - 1]),
  };
}

function describe(latencies) {
  const p = percentiles(latencies);
  return `${p.requests} reads, p50 ${p.p50} ms, p90 ${p.p90} ms, p99 ${p.p99} ms, max ${p.max} ms`;
}

/** Resident memory of a process now and at its peak, in bytes (Linux). */
function memory(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') * 1024, hwm: kb('VmHWM') * 1024 };
}

const round = (value) => Math.round(value * 10) / 10;
const mbOf = (bytes) => Math.round(bytes / 1e6);
const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
const s = (ms) => `${(ms / 1000).toFixed(1)} s`;

runMain(main);
