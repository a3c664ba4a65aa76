'use strict';
/**
 * What the content benchmarks share (content.js, changes.js): a throwaway database with Bindery
 * serving it in a child process and a user, its token and an organization made through the API;
 * Bindery's application booted in the bench process on the same database, to use the engine
 * directly; and an object store that writes generated content in bulk.
 */
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const {
  ROOT,
  log,
  createPostgresDatabase,
  startEmbeddedDatabase,
  startBindery,
  createOrganization,
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
async function startBinderyWithOrganization({ stamp, name }) {
  const database = process.env.DATABASE_URL
    ? await createPostgresDatabase(process.env.DATABASE_URL)
    : await startEmbeddedDatabase(
        'embedded PGlite (in memory, served from this bench process): every query is serialized ' +
          'through one WASM engine that shares the process with the generator and autocannon; ' +
          'set DATABASE_URL for a real PostgreSQL run',
      );
  log(`Database: ${database.description}`);
  const { env, baseUrl, adminToken, child, logFile } = await startBindery(database, name, stamp);
  log(`Bindery ready on ${baseUrl} (log: ${logFile})`);
  const { token, userId, org } = await createOrganization(baseUrl, adminToken, name);
  return { database, env, bindery: child, binderyLog: logFile, baseUrl, token, userId, org };
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

module.exports = {
  DIST,
  startBinderyWithOrganization,
  bootApp,
  BufferedStore,
  moveSpaceTo,
  onePageChangeRequest,
};
