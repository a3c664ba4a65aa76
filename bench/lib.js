'use strict';
/* global fetch, AbortSignal */
/**
 * Helpers shared by the benchmarks (run.js, content.js): a throwaway database (PostgreSQL or
 * embedded PGlite), child processes, cleanup on success, error and Ctrl-C, API calls.
 */
const { execFileSync, spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { URL } = require('node:url');
const { Client } = require('pg');

const ROOT = path.join(__dirname, '..');
const RESULTS_DIR = path.join(__dirname, 'results');
// BINDERY_DIST measures another build (an earlier commit's, or a variant, built apart).
const BINDERY_MAIN = path.join(
  process.env.BINDERY_DIST
    ? path.resolve(process.env.BINDERY_DIST)
    : path.join(ROOT, 'dist', 'src'),
  'main.js',
);

function positiveNumber(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number (got ${raw})`);
  return value;
}

const log = (message) => process.stdout.write(`${message}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Cleanup steps, run last-in first-out on success, error and Ctrl-C. */
const cleanups = [];
let interrupted = false;
let cleaning;
function runCleanups() {
  cleaning ??= (async () => {
    while (cleanups.length) {
      const step = cleanups.pop();
      try {
        await step();
      } catch (error) {
        process.stderr.write(
          `cleanup: ${error instanceof Error ? error.message : String(error)}\n`,
        );
      }
    }
  })();
  return cleaning;
}

/** Runs `main`, then the cleanups; on SIGINT/SIGTERM, the cleanups then exit 130. */
function runMain(main) {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      interrupted = true;
      process.stderr.write(`\n${signal}: cleaning up…\n`);
      runCleanups().finally(() => process.exit(130));
    });
  }
  (async () => {
    let failed = false;
    try {
      await main();
    } catch (error) {
      failed = true;
      // After Ctrl-C, main fails as the cleanups close what it was using: not worth a report.
      if (!interrupted)
        process.stderr.write(
          `\nbench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
        );
    } finally {
      await runCleanups();
    }
    if (!interrupted) process.exit(failed ? 1 : 0);
  })();
}

function checkInterrupted(what) {
  if (interrupted) throw new Error(`interrupted: not ${what}`);
}

// ---------------------------------------------------------------- database

async function createPostgresDatabase(serverUrl) {
  const name = `bindery_bench_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  // BENCH_KEEP_DATABASE=1: left for a look afterwards (EXPLAIN of the statements measured).
  const keep = process.env.BENCH_KEEP_DATABASE === '1';
  cleanups.push(async () => {
    if (keep) return log(`Kept database ${name} (BENCH_KEEP_DATABASE)`);
    const client = new Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      log(`Dropped database ${name}`);
    } finally {
      await client.end();
    }
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    kind: 'postgresql',
    name,
    url: url.toString(),
    description: `PostgreSQL at ${url.host}, fresh database ${name} (${keep ? 'kept' : 'dropped'} at the end)`,
  };
}

/**
 * Embedded PGlite (in memory) in this process (on a thread of its own), served by Bindery's own EmbeddedDatabase from
 * dist/ (run `npm run build` first). Not pglite-socket's server: it hands PGlite's single
 * session over between the messages of an extended-protocol batch (electric-sql/pglite#1046),
 * so two connections writing at once can mix their batches; EmbeddedDatabase gives the session
 * to one connection per batch or transaction.
 */
async function startEmbeddedDatabase(description) {
  const { EmbeddedDatabase } = require(
    path.join(ROOT, 'dist', 'src', 'platform', 'database', 'embedded-database'),
  );
  const embedded = await EmbeddedDatabase.start();
  cleanups.push(() => embedded.stop());
  return { kind: 'embedded', url: embedded.url, description };
}

// ---------------------------------------------------------------- child processes

function startChild(name, args, logFile, env) {
  checkInterrupted(`starting ${name}`);
  const out = fs.openSync(logFile, 'a');
  // BENCH_NODE_ARGS: options for every child Node process (`--cpu-prof --cpu-prof-dir=/tmp/p`).
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  child.logFile = logFile;
  child.exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  child.once('error', (error) => process.stderr.write(`${name}: ${error.message}\n`));
  cleanups.push(() => stopChild(name, child));
  return child;
}

async function stopChild(name, child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    process.stderr.write(`${name} did not stop within 5 s of SIGTERM: SIGKILL\n`);
    child.kill('SIGKILL');
  }, 5000);
  await child.exited;
  clearTimeout(timer);
}

async function waitForHealth(child, url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await sleep(100); // let the last lines reach the log
      throw new Error(
        `${url}: the process exited (${child.exitCode ?? child.signalCode}) before answering. ` +
          `End of ${child.logFile}:\n${tail(child.logFile)}`,
      );
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
      if (response.status === 200) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await sleep(250);
  }
  throw new Error(
    `${url} did not answer 200 within ${timeoutMs / 1000} s (last: ${last}). ` +
      `End of ${child.logFile}:\n${tail(child.logFile)}`,
  );
}

function tail(file, lines = 20) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** User + system CPU seconds a process has used so far (Linux /proc), or null elsewhere. */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();
function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime, stime
  } catch {
    return null;
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// ---------------------------------------------------------------- HTTP

async function api(baseUrl, method, pathname, token, body, expected) {
  const response = await fetch(`${baseUrl}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== expected) {
    throw new Error(
      `${method} ${pathname}: expected ${expected}, got ${response.status}: ${text.slice(0, 500)}`,
    );
  }
  return JSON.parse(text);
}

async function expectOk(name, url, headers) {
  const response = await fetch(url, { headers });
  const text = await response.text();
  if (response.status !== 200) {
    throw new Error(
      `${name} (${url}) answered ${response.status} instead of 200: ${text.slice(0, 500)}`,
    );
  }
  return text;
}

/** One autocannon run, as the reports record it. */
function summarize(target, result, { durationS, connections }) {
  return {
    target,
    durationS,
    connections,
    requests: result.requests.total,
    reqPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p90Ms: result.latency.p90,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: result.statusCodeStats,
  };
}

/**
 * Bindery (`dist/src/main.js`) as a child process on `database`, with a fresh data folder and
 * admin token, ready when this resolves: its `env` (for an application booted in the bench
 * process on the same database), `baseUrl`, `adminToken`, `child` and `logFile`
 * (`results/<stamp>-<name>-bindery.log`).
 */
async function startBindery(database, name, stamp, extraEnv = {}) {
  const adminToken = randomBytes(36).toString('base64url');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `bindery-bench-${name}-`));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const env = {
    DATABASE_URL: database.url,
    // The embedded server shares one backend session between connections (see run.js).
    DATABASE_PREPARED_STATEMENTS: String(database.kind === 'postgresql'),
    SEED_DEMO: 'false',
    ADMIN_TOKEN: adminToken,
    // Required with DATABASE_URL (the bench's embedded server is reached through one too).
    SECRET_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
    DATA_DIR: dataDir,
    ...extraEnv,
  };
  const port = await freePort();
  const logFile = path.join(RESULTS_DIR, `${stamp}-${name}-bindery.log`);
  const child = startChild('bindery', [BINDERY_MAIN], logFile, {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealth(child, `${baseUrl}/health`, 60_000);
  return { env, baseUrl, adminToken, child, logFile };
}

/**
 * Bindery as `npm start` runs it: the embedded database in its process, or a throwaway
 * PostgreSQL database when the bench has DATABASE_URL. `env` is Bindery's settings; the bench's
 * own AI_* settings and (without DATABASE_URL) its DATABASE_URL are not passed on: Bindery gets
 * no model or database the bench did not choose. Keys of `env` set to '' are left out.
 */
async function startBinderyOwnDatabase(name, stamp, env) {
  const adminToken = randomBytes(36).toString('base64url');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `bindery-bench-${name}-`));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const settings = {
    SEED_DEMO: 'false',
    ADMIN_TOKEN: adminToken,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
    DATA_DIR: dataDir,
    ...env,
  };
  for (const [key, value] of Object.entries(settings)) if (value === '') delete settings[key];
  let database = 'the embedded database (in Bindery’s process, files in a temporary folder)';
  if (process.env.DATABASE_URL) {
    const created = await createPostgresDatabase(process.env.DATABASE_URL);
    Object.assign(settings, {
      DATABASE_URL: created.url,
      SECRET_KEY: randomBytes(32).toString('hex'),
    });
    database = created.description;
  }
  const port = await freePort();
  const logFile = path.join(RESULTS_DIR, `${stamp}-${name}-bindery.log`);
  const inherited = { ...process.env };
  for (const key of ['AI_API_URL', 'AI_MODEL', 'AI_EMBEDDING_MODEL', 'AI_API_KEY']) {
    delete inherited[key];
  }
  if (!process.env.DATABASE_URL) delete inherited.DATABASE_URL;
  const saved = process.env;
  process.env = inherited;
  let child;
  try {
    child = startChild('bindery', [BINDERY_MAIN], logFile, {
      ...settings,
      PORT: String(port),
      HOST: '127.0.0.1',
    });
  } finally {
    process.env = saved;
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealth(child, `${baseUrl}/health/ready`, 120_000);
  return { baseUrl, adminToken, child, logFile, database };
}

/** A user made through the admin API (its token and id) and an organization of theirs. */
async function createOrganization(baseUrl, adminToken, name, title = 'Bench') {
  const created = await api(
    baseUrl,
    'POST',
    '/v1/admin/users',
    adminToken,
    { email: `bench-${name}-${randomBytes(3).toString('hex')}@example.com`, displayName: 'Bench' },
    201,
  );
  const org = await api(baseUrl, 'POST', '/v1/orgs', created.token, { title }, 201);
  return { token: created.token, userId: created.user.id, org };
}

/** Runs `fn`, answering its value and how long it took. */
async function timed(fn) {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

/** The median of the numbers among `values` (nulls left out). */
function median(values) {
  const sorted = values.filter((v) => v !== null).sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const ms = (value) => `${value.toFixed(1)} ms`;
const s = (value) => `${(value / 1000).toFixed(1)} s`;

module.exports = {
  startBindery,
  startBinderyOwnDatabase,
  createOrganization,
  timed,
  ms,
  s,
  summarize,
  median,
  ROOT,
  RESULTS_DIR,
  BINDERY_MAIN,
  positiveNumber,
  log,
  sleep,
  cleanups,
  runCleanups,
  runMain,
  checkInterrupted,
  createPostgresDatabase,
  startEmbeddedDatabase,
  startChild,
  stopChild,
  waitForHealth,
  tail,
  cpuSeconds,
  freePort,
  api,
  expectOk,
};
