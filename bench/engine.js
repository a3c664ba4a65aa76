'use strict';
/**
 * What the content benchmarks share (content.js, changes.js): a throwaway database with Bindery
 * serving it in a child process and a user, its token and an organization made through the API;
 * Bindery's application booted in the bench process on the same database, to use the engine
 * directly; and an object store that writes generated content in bulk.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { performance } = require('node:perf_hooks');
const {
  ROOT,
  RESULTS_DIR,
  BINDERY_MAIN,
  log,
  cleanups,
  createPostgresDatabase,
  startEmbeddedDatabase,
  startChild,
  waitForHealth,
  freePort,
  api,
} = require('./lib');

const DIST = path.join(ROOT, 'dist', 'src');
/** Rows per bulk INSERT of generated objects. */
const INSERT_BATCH = 1000;

/**
 * A throwaway database (a fresh `bindery_bench_<random>` on DATABASE_URL, else embedded PGlite
 * in this process), Bindery on it in a child process (`LOG_LEVEL=warn`, its log in
 * `bench/results/<stamp>-<name>-bindery.log`), and a user with its token and an organization.
 */
async function startBindery({ stamp, name }) {
  const database = process.env.DATABASE_URL
    ? await createPostgresDatabase(process.env.DATABASE_URL)
    : await startEmbeddedDatabase(
        'embedded PGlite (in memory, served from this bench process): every query is serialized ' +
          'through one WASM engine that shares the process with the generator and autocannon; ' +
          'set DATABASE_URL for a real PostgreSQL run',
      );
  log(`Database: ${database.description}`);

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
  };
  const port = await freePort();
  const binderyLog = path.join(RESULTS_DIR, `${stamp}-${name}-bindery.log`);
  const bindery = startChild('bindery', [BINDERY_MAIN], binderyLog, {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealth(bindery, `${baseUrl}/health`, 60_000);
  log(`Bindery ready on ${baseUrl} (log: ${binderyLog})`);

  const created = await api(
    baseUrl,
    'POST',
    '/v1/admin/users',
    adminToken,
    { email: `bench-${name}-${randomBytes(3).toString('hex')}@example.com`, displayName: 'Bench' },
    201,
  );
  const org = await api(baseUrl, 'POST', '/v1/orgs', created.token, { title: 'Bench' }, 201);
  return {
    database,
    env,
    bindery,
    binderyLog,
    baseUrl,
    token: created.token,
    userId: created.user.id,
    org,
  };
}

/**
 * Bindery's Nest application booted from dist against the bench database, without listening
 * and without running jobs (the child does): for the engine's services and its DataSource.
 */
async function bootApp(env) {
  const { loadConfig } = require(path.join(DIST, 'platform', 'config', 'app-config'));
  const { createApp } = require(path.join(DIST, 'setup'));
  const config = loadConfig(
    { ...process.env, ...env },
    { JOBS_IN_PROCESS: false, DATABASE_POOL_SIZE: 4 },
  );
  return createApp(config);
}

/**
 * An object store that keeps what is put in memory and writes it in bulk at the end (`flush`):
 * a generation's tens of thousands of objects in a few INSERTs rather than one each. Same
 * hashes as the engine's (SHA-256 of canonical JSON).
 */
class BufferedStore {
  constructor(inner) {
    const { canonicalJson } = require(path.join(DIST, 'content-engine', 'tree', 'object-store'));
    const { sha256Hex } = require(path.join(DIST, 'platform', 'ids', 'ids'));
    this.inner = inner;
    this.canonicalJson = canonicalJson;
    this.sha256Hex = sha256Hex;
    this.pending = new Map();
  }

  get(hash) {
    const pending = this.pending.get(hash);
    return pending ? Promise.resolve(JSON.parse(pending.json)) : this.inner.get(hash);
  }

  put(kind, data) {
    const json = this.canonicalJson(data);
    const hash = this.sha256Hex(json);
    if (!this.pending.has(hash)) this.pending.set(hash, { kind, json });
    return Promise.resolve(hash);
  }

  async flush(manager) {
    const entries = [...this.pending.entries()];
    let bytes = 0;
    for (let i = 0; i < entries.length; i += INSERT_BATCH) {
      const batch = entries.slice(i, i + INSERT_BATCH);
      await manager.query(
        `INSERT INTO content_objects (hash, kind, data, created_at)
         SELECT h, k, d::jsonb, $4 FROM unnest($1::text[], $2::text[], $3::text[]) AS t(h, k, d)
         ON CONFLICT (hash) DO NOTHING`,
        [
          batch.map(([hash]) => hash),
          batch.map(([, o]) => o.kind),
          batch.map(([, o]) => o.json),
          new Date(),
        ],
      );
      for (const [, object] of batch) bytes += Buffer.byteLength(object.json);
    }
    this.pending.clear();
    return { objects: entries.length, bytes };
  }
}

/**
 * Moves the space from revision `parent` to a new revision with root `tree` (authored by
 * `userId`) with a compare-and-swap, as the engine's writes do; answers the revision's id.
 */
async function moveSpaceTo(manager, { spaceId, parent, tree, userId }) {
  const { newId } = require(path.join(DIST, 'platform', 'ids', 'ids'));
  const revisionId = newId();
  const now = new Date();
  await manager.query(
    `INSERT INTO revisions (id, space_id, parents, type, tree, author_id, git, created_at)
     VALUES ($1, $2, $3, 'edits', $4, $5, NULL, $6)`,
    [revisionId, spaceId, [parent], tree, userId, now],
  );
  const moved = await manager.query(
    'UPDATE spaces SET revision_id = $1, updated_at = $2 WHERE id = $3 AND revision_id = $4 RETURNING id',
    [revisionId, now, spaceId, parent],
  );
  // TypeORM answers an UPDATE on PostgreSQL with [rows, affected].
  const affected = Array.isArray(moved[0]) ? moved[1] : moved.length;
  if (affected !== 1) throw new Error('the space moved during the generation');
  return revisionId;
}

/**
 * A change request that rewrites one page's body (`update_page` with markdown), over HTTP;
 * answers it and how long the content write took.
 */
async function onePageChangeRequest({ baseUrl, token, spaceId, pageId, subject, markdown }) {
  const base = `/v1/spaces/${spaceId}/change-requests`;
  const cr = await api(baseUrl, 'POST', base, token, { subject }, 201);
  const started = performance.now();
  const changes = [{ operation: 'update_page', page: pageId, document: { markdown } }];
  await api(baseUrl, 'POST', `${base}/${cr.id}/content`, token, { changes }, 200);
  return { cr, writeMs: performance.now() - started };
}

/** Nearest-rank percentile. */
function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

module.exports = {
  DIST,
  startBindery,
  bootApp,
  BufferedStore,
  moveSpaceTo,
  onePageChangeRequest,
  percentile,
};
