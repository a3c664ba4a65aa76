'use strict';
/* global fetch */
/**
 * `npm run bench` (after run.js), or `node bench/content.js` after `npm run build`: the content
 * engine at scale (issue #5). A space of 10,420 pages (20 × 20 × 25, three levels) with
 * documents of about ten sections each is generated in-process through the tree's `commit()`,
 * indexed for search, then measured: what a one-page edit writes and costs (commitOnPrimary
 * with its incremental re-index), page reads by id over HTTP (primary and an old revision), and
 * search over the ~100,000 sections. See bench/README.md, "Content benchmark".
 *
 * Env: DATABASE_URL (PostgreSQL server for a throwaway database; unset = embedded PGlite in
 * this process), BENCH_CONTENT_SHAPE (pages per level, default 20x20x25), BENCH_DURATION
 * (seconds per read run, default 10), BENCH_CONTENT_CONNECTIONS (default 16), BENCH_WARMUP
 * (seconds before each read run, default 3), BENCH_CONTENT_EDITS (one-page edits, default 5),
 * BENCH_SEARCH_REQUESTS (measured searches, default 200).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const autocannon = require('autocannon');
const {
  RESULTS_DIR,
  positiveNumber,
  log,
  sleep,
  cleanups,
  runMain,
  checkInterrupted,
  cpuSeconds,
  api,
  expectOk,
  summarize,
  timed,
  ms,
  s,
} = require('./lib');
const {
  DIST,
  startBinderyWithOrganization,
  bootApp,
  BufferedStore,
  moveSpaceTo,
  onePageChangeRequest,
} = require('./engine');
const {
  between,
  capitalize,
  median,
  mulberry32,
  pageTitle,
  percentile,
  sentence,
  term,
  VERBS,
} = require('./text');

const SHAPE = parseShape(process.env.BENCH_CONTENT_SHAPE || '20x20x25');
const DURATION = positiveNumber('BENCH_DURATION', 10);
const CONNECTIONS = Math.ceil(positiveNumber('BENCH_CONTENT_CONNECTIONS', 16));
const WARMUP = positiveNumber('BENCH_WARMUP', 3);
const EDITS = Math.ceil(positiveNumber('BENCH_CONTENT_EDITS', 5));
const SEARCH_REQUESTS = Math.ceil(positiveNumber('BENCH_SEARCH_REQUESTS', 200));
const MERGES = Math.ceil(positiveNumber('BENCH_CONTENT_MERGES', 5));
const SEARCH_WARMUP_REQUESTS = 30;
/** Headings per document: with the lead, ten sections per page. */
const HEADINGS_PER_PAGE = 9;
const TARGETS = { editBytes: 64 * 1024, editObjects: 10, searchP95Ms: 50, mergeMs: 100 };
const SETTLE_MS = 1000;

function parseShape(raw) {
  const levels = raw.split('x').map(Number);
  if (levels.length !== 3 || !levels.every((n) => Number.isInteger(n) && n > 0)) {
    throw new Error(
      `BENCH_CONTENT_SHAPE must be three positive integers like 20x20x25 (got ${raw})`,
    );
  }
  return levels;
}

async function main() {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const loadAtStart = os.loadavg();

  // 1.–3. A database, Bindery on it, a user and an organization; an empty space through the API.
  const { database, env, bindery, binderyLog, baseUrl, token, userId, org } =
    await startBinderyWithOrganization({
      stamp,
      name: 'content',
    });
  const space = await api(
    baseUrl,
    'POST',
    `/v1/orgs/${org.id}/spaces`,
    token,
    { title: 'Handbook', empty: true },
    201,
  );
  const spaceId = space.id;
  log(`Created user ${userId}, organization ${org.id}, space ${spaceId}`);

  // 4. The engine in this process: Nest booted from dist on the same database, not listening.
  checkInterrupted('booting the engine');
  const engine = await bootEngine(env);
  cleanups.push(() => engine.close());

  // 5. Generate the space, then build its search index.
  const generation = await generate(engine, spaceId, userId);
  log(
    `Generated ${generation.pages} pages (${SHAPE.join(' × ')}) with ${generation.sections} sections: ` +
      `${generation.objects} objects, ${mb(generation.bytes)} of canonical JSON, in ${s(generation.ms)} ` +
      `(documents ${s(generation.documentsMs)}, tree commit ${s(generation.commitMs)}, insert ${s(generation.insertMs)})`,
  );
  const indexBuild = await timed(() =>
    engine.dataSource.transaction((manager) => engine.indexer.rebuild(manager, spaceId)),
  );
  const sectionRows = await count(
    engine,
    'SELECT count(*) FROM page_sections WHERE space_id = $1',
    [spaceId],
  );
  log(
    `Search index built (SearchIndexer.rebuild): ${indexBuild.value.indexed} pages, ${sectionRows} sections in ${s(indexBuild.ms)}`,
  );
  // Statistics for the planner, as autovacuum would gather them shortly after such a load.
  await engine.dataSource.query('ANALYZE content_objects, revisions, page_sections, page_search');
  const storage = await storageSizes(engine);

  // 6. One-page edits through commitOnPrimary (the search index follows in the same transaction).
  const edits = [];
  for (let i = 0; i < EDITS; i++) {
    checkInterrupted('editing');
    const edit = await onePageEdit(engine, spaceId, userId, generation, i);
    edits.push(edit);
    log(
      `  edit ${i + 1}: ${edit.objects} objects (${edit.kinds.join(', ')}), ${kb(edit.bytes)} ` +
        `(${kb(edit.storedBytes)} stored), commit ${ms(edit.commitMs)} of which re-index ${ms(edit.reindexMs)} ` +
        `(${edit.reindexed.indexed} page re-indexed; ${edit.objectReads} objects read one by one, ` +
        `${edit.reindexObjectReads} of them by the re-index)`,
    );
  }
  const editSummary = {
    objects: median(edits.map((e) => e.objects)),
    bytes: median(edits.map((e) => e.bytes)),
    maxObjects: Math.max(...edits.map((e) => e.objects)),
    maxBytes: Math.max(...edits.map((e) => e.bytes)),
    commitMedianMs: median(edits.map((e) => e.commitMs)),
    reindexMedianMs: median(edits.map((e) => e.reindexMs)),
  };

  // 6b. Merging a one-page change request over HTTP: as created (the primary did not move) and
  // after another page's edit on the primary (a three-way merge).
  const merges = [];
  for (let i = 0; i < MERGES; i++) {
    checkInterrupted('merging');
    for (const primaryMoved of [false, true]) {
      const merge = await onePageMerge({
        baseUrl,
        token,
        engine,
        spaceId,
        userId,
        generation,
        n: i,
        primaryMoved,
      });
      merges.push(merge);
      log(
        `  merge ${i + 1}${primaryMoved ? ' (primary moved)' : ''}: ${ms(merge.mergeMs)} ` +
          `(change request write ${ms(merge.writeMs)})`,
      );
    }
  }
  const mergeSummary = {
    asCreatedMedianMs: median(merges.filter((m) => !m.primaryMoved).map((m) => m.mergeMs)),
    primaryMovedMedianMs: median(merges.filter((m) => m.primaryMoved).map((m) => m.mergeMs)),
    maxMs: Math.max(...merges.map((m) => m.mergeMs)),
  };

  // 7. Page reads by id over HTTP: the primary and the generated (now old) revision.
  const headers = { authorization: `Bearer ${token}` };
  const pageIds = generation.pageIds;
  const primaryPath = (id) => `/v1/spaces/${spaceId}/content/page/${id}`;
  const oldPath = (id) => `/v1/spaces/${spaceId}/revisions/${generation.revisionId}/page/${id}`;
  await expectOk('page of the primary', `${baseUrl}${primaryPath(pageIds[0])}`, headers);
  await expectOk('page of the old revision', `${baseUrl}${oldPath(pageIds[0])}`, headers);
  const loadBeforeReads = os.loadavg()[0];
  log(
    `\nReads: random pages of ${pageIds.length}, ${CONNECTIONS} connections, warm-up ${WARMUP} s then ${DURATION} s` +
      ` (1-minute load average ${loadBeforeReads.toFixed(1)} on ${os.cpus().length} CPUs)`,
  );
  const reads = [];
  for (const [target, pathOf] of [
    ['GET /v1/spaces/:id/content/page/:pageId', primaryPath],
    ['GET /v1/spaces/:id/revisions/:old/page/:pageId', oldPath],
  ]) {
    await readLoad(baseUrl, headers, pageIds, pathOf, WARMUP);
    await sleep(SETTLE_MS);
    const cpuBefore = cpuSeconds(bindery.pid);
    const result = await readLoad(baseUrl, headers, pageIds, pathOf, DURATION);
    const cpuAfter = cpuSeconds(bindery.pid);
    const run = summarize(target, result, { durationS: DURATION, connections: CONNECTIONS });
    run.serverCpuMsPerRequest =
      cpuBefore === null || cpuAfter === null || run.requests === 0
        ? null
        : ((cpuAfter - cpuBefore) * 1000) / run.requests;
    reads.push(run);
    log(
      `  ${target}: ${run.reqPerSec.toFixed(0)} req/s, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms, ` +
        `non-2xx ${run.non2xx}, errors ${run.errors + run.timeouts}`,
    );
  }

  // 8. Search, one request at a time.
  await sleep(SETTLE_MS);
  const search = await measureSearch(baseUrl, headers, spaceId);
  log(
    `\nSearch (${search.requests} requests, one at a time, ${QUERIES.length} queries): ` +
      `p50 ${ms(search.p50Ms)}, p95 ${ms(search.p95Ms)}, p99 ${ms(search.p99Ms)}, max ${ms(search.maxMs)}`,
  );

  // 9. Report.
  const report = {
    date: new Date().toISOString(),
    database: { kind: database.kind, name: database.name, description: database.description },
    node: process.version,
    cpus: os.cpus().length,
    loadAverage: { atStart: loadAtStart, beforeReads: loadBeforeReads, atEnd: os.loadavg() },
    settings: {
      shape: SHAPE,
      headingsPerPage: HEADINGS_PER_PAGE,
      readDurationS: DURATION,
      readWarmupS: WARMUP,
      readConnections: CONNECTIONS,
      edits: EDITS,
      merges: MERGES,
      searchRequests: SEARCH_REQUESTS,
    },
    targets: TARGETS,
    space: { id: spaceId, generatedRevisionId: generation.revisionId },
    generation: { ...generation, pageIds: undefined, leafIds: undefined, pageSeeds: undefined },
    indexBuild: { ms: indexBuild.ms, pages: indexBuild.value.indexed, sections: sectionRows },
    storage,
    edits,
    editSummary,
    merges,
    mergeSummary,
    reads,
    search,
    met: {
      editBytes: editSummary.maxBytes <= TARGETS.editBytes,
      editObjects: editSummary.maxObjects <= TARGETS.editObjects,
      searchP95: search.p95Ms <= TARGETS.searchP95Ms,
      merge: mergeSummary.maxMs <= TARGETS.mergeMs,
    },
    logs: { bindery: binderyLog },
  };
  printReport(report);
  const resultsFile = path.join(RESULTS_DIR, `${stamp}-content.json`);
  fs.writeFileSync(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
  log(`\nResults: ${resultsFile}`);
}

// ---------------------------------------------------------------- engine in process

/**
 * Boots Bindery's Nest application from dist against the bench database, without listening:
 * the engine's services (ContentEngine, ContentWriter, SearchIndexer) and its DataSource.
 */
async function bootEngine(env) {
  const { ContentEngine } = require(path.join(DIST, 'content-engine', 'content-engine'));
  const { ContentWriter } = require(path.join(DIST, 'content-engine', 'writes', 'content-writer'));
  const { SearchIndexer } = require(path.join(DIST, 'content-engine', 'search', 'search-indexer'));
  const { DataSource } = require('typeorm');
  // The child serves the API and runs the jobs; this one only writes content.
  const bindery = await bootApp(env);
  const indexer = bindery.app.get(SearchIndexer);
  // Times the re-index that commitOnPrimary runs through its primary-moved listener.
  const reindex = indexer.reindex;
  const engine = {
    dataSource: bindery.app.get(DataSource),
    content: bindery.app.get(ContentEngine),
    writer: bindery.app.get(ContentWriter),
    indexer,
    lastReindex: null,
    close: () => bindery.close(),
  };
  // Counts the objects read from content_objects one by one (the engine's ObjectStore `get`).
  const content = engine.content;
  const objectStore = content.objectStore;
  engine.objectGets = 0;
  content.objectStore = function countedObjectStore(...args) {
    const store = objectStore.apply(this, args);
    const get = store.get;
    store.get = (hash) => {
      engine.objectGets++;
      return get(hash);
    };
    return store;
  };
  indexer.reindex = async function timedReindex(...args) {
    const started = performance.now();
    const gets = engine.objectGets;
    const result = await reindex.apply(this, args);
    engine.lastReindex = {
      ms: performance.now() - started,
      result,
      objectReads: engine.objectGets - gets,
    };
    return result;
  };
  return engine;
}

/**
 * The space's pages, in one revision on top of its (empty) primary: documents stored, the
 * tree built by `commit()` from one batch of insert_page changes, the objects written in bulk,
 * the revision inserted and the space moved to it with a compare-and-swap.
 */
async function generate(engine, spaceId, userId) {
  const { commit } = require(path.join(DIST, 'content-engine', 'tree', 'commit'));
  const { newId } = require(path.join(DIST, 'platform', 'ids', 'ids'));
  const started = performance.now();
  const pageIds = [];
  const leafIds = []; // the deepest level's pages, which the edits change
  const pageSeeds = new Map(); // page id → seed of its document, to edit it later
  let sections = 0;
  const result = await engine.dataSource.transaction(async (manager) => {
    const [row] = await manager.query(
      'SELECT s.revision_id, r.tree FROM spaces s JOIN revisions r ON r.id = s.revision_id WHERE s.id = $1',
      [spaceId],
    );
    const store = new BufferedStore(engine.content.objectStore(manager));
    const changes = [];
    const rng = mulberry32(0x5eed);
    const addPage = async (parent, depth) => {
      const id = newId();
      const seed = pageIds.length + 1;
      const document = documentFor(seed);
      sections += 1 + HEADINGS_PER_PAGE;
      pageIds.push(id);
      pageSeeds.set(id, seed);
      if (depth === 2) leafIds.push(id);
      changes.push({
        operation: 'insert_page',
        id,
        meta: { title: pageTitle(rng, depth) },
        document: await store.put('document', document),
        ...(parent ? { into: parent } : {}),
      });
      return id;
    };
    for (let i = 0; i < SHAPE[0]; i++) {
      const part = await addPage(null, 0);
      for (let j = 0; j < SHAPE[1]; j++) {
        const chapter = await addPage(part, 1);
        for (let k = 0; k < SHAPE[2]; k++) await addPage(chapter, 2);
      }
    }
    const documentsDone = performance.now();
    const tree = await commit(store, row.tree, changes);
    const commitDone = performance.now();
    const written = await store.flush(manager);
    const revisionId = await moveSpaceTo(manager, {
      spaceId,
      parent: row.revision_id,
      tree,
      userId,
    });
    return {
      revisionId,
      tree,
      ...written,
      documentsMs: documentsDone - started,
      commitMs: commitDone - documentsDone,
      insertMs: performance.now() - commitDone,
    };
  });
  return {
    pages: pageIds.length,
    sections,
    ...result,
    ms: performance.now() - started,
    pageIds,
    leafIds,
    pageSeeds,
  };
}

/** One set_document on a random deepest-level page, with one paragraph rewritten. */
/**
 * One change request editing one leaf page (written over HTTP), merged over HTTP; with
 * `primaryMoved`, another leaf is edited on the primary in between, so the merge is three-way.
 * Times the merge request.
 */
async function onePageMerge({
  baseUrl,
  token,
  engine,
  spaceId,
  userId,
  generation,
  n,
  primaryMoved,
}) {
  const rng = mulberry32(0x3e76e + n * 2 + (primaryMoved ? 1 : 0));
  const leaves = generation.leafIds;
  const pageId = leaves[Math.floor(rng() * leaves.length)];
  const base = `/v1/spaces/${spaceId}/change-requests`;
  const { cr, writeMs } = await onePageChangeRequest({
    baseUrl,
    token,
    spaceId,
    pageId,
    subject: `Bench merge ${n + 1}`,
    markdown: `${sentence(rng)}\n\n${sentence(rng)} (merge ${n + 1})\n`,
  });
  if (primaryMoved) await onePageEdit(engine, spaceId, userId, generation, 1000 + n);
  const started = performance.now();
  const outcome = await api(baseUrl, 'POST', `${base}/${cr.id}/merge`, token, {}, 200);
  const mergeMs = performance.now() - started;
  if (outcome.result !== 'merge') throw new Error(`merge ${n + 1}: ${JSON.stringify(outcome)}`);
  return { pageId, primaryMoved, writeMs, mergeMs };
}

async function onePageEdit(engine, spaceId, userId, generation, n) {
  const rng = mulberry32(0xed17 + n);
  const leaves = generation.leafIds;
  const pageId = leaves[Math.floor(rng() * leaves.length)];
  const document = documentFor(generation.pageSeeds.get(pageId));
  const paragraphs = document.nodes.filter((block) => block.type === 'paragraph');
  const target = paragraphs[Math.floor(rng() * paragraphs.length)];
  target.nodes[0].leaves = [leaf(`${sentence(rng)} ${sentence(rng)} (edit ${n + 1})`)];

  const [space] = await engine.dataSource.query('SELECT revision_id FROM spaces WHERE id = $1', [
    spaceId,
  ]);
  const objectsBefore = await count(engine, 'SELECT count(*) FROM content_objects');
  const since = new Date();
  engine.lastReindex = null;
  const getsBefore = engine.objectGets;
  const started = performance.now();
  const committed = await engine.dataSource.transaction((manager) =>
    engine.writer.commitOnPrimary(manager, {
      spaceId,
      expectedRevisionId: space.revision_id,
      authorId: userId,
      type: 'edits',
      changes: [{ operation: 'set_document', page: pageId, document }],
    }),
  );
  const commitMs = performance.now() - started;
  if (!engine.lastReindex) throw new Error('commitOnPrimary did not re-index the space');
  // The Clock of the engine in this process stamps created_at: rows stamped since `since` are new.
  const rows = await engine.dataSource.query(
    'SELECT kind, data, pg_column_size(data) AS stored FROM content_objects WHERE created_at >= $1',
    [since],
  );
  const objectsAfter = await count(engine, 'SELECT count(*) FROM content_objects');
  if (objectsAfter - objectsBefore !== rows.length) {
    throw new Error(
      `content_objects grew by ${objectsAfter - objectsBefore} rows but ${rows.length} are stamped since the edit`,
    );
  }
  return {
    pageId,
    revisionId: committed.revision.id,
    objects: rows.length,
    kinds: rows.map((r) => r.kind).sort(),
    // Canonical JSON (what the engine hashes); same length as JSON.stringify in another key order.
    bytes: rows.reduce((sum, r) => sum + Buffer.byteLength(JSON.stringify(r.data)), 0),
    storedBytes: rows.reduce((sum, r) => sum + Number(r.stored), 0),
    commitMs,
    reindexMs: engine.lastReindex.ms,
    reindexed: engine.lastReindex.result,
    // Single-object SELECTs on content_objects during the commit, and during its re-index.
    objectReads: engine.objectGets - getsBefore,
    reindexObjectReads: engine.lastReindex.objectReads,
  };
}

async function storageSizes(engine) {
  const [row] = await engine.dataSource.query(
    `SELECT pg_total_relation_size('content_objects') AS content_objects,
            pg_total_relation_size('page_sections') AS page_sections`,
  );
  return {
    contentObjectsBytes: Number(row.content_objects),
    pageSectionsBytes: Number(row.page_sections),
  };
}

async function count(engine, sql, params = []) {
  const [row] = await engine.dataSource.query(sql, params);
  return Number(Object.values(row)[0]);
}

// ---------------------------------------------------------------- HTTP measurements

function readLoad(baseUrl, headers, pageIds, pathOf, duration) {
  return autocannon({
    url: baseUrl,
    headers,
    connections: CONNECTIONS,
    duration,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => ({
          ...request,
          path: pathOf(pageIds[Math.floor(Math.random() * pageIds.length)]),
        }),
      },
    ],
  });
}

/** Searches one at a time (latency without queueing), queries in a random order. */
async function measureSearch(baseUrl, headers, spaceId) {
  const rng = mulberry32(0x5ea7c4);
  const pick = () => QUERIES[Math.floor(rng() * QUERIES.length)];
  const run = async (query) => {
    const url = `${baseUrl}/v1/spaces/${spaceId}/search?query=${encodeURIComponent(query)}`;
    const started = performance.now();
    const response = await fetch(url, { headers });
    const body = await response.text();
    const elapsed = performance.now() - started;
    if (response.status !== 200) {
      throw new Error(
        `search ${JSON.stringify(query)}: HTTP ${response.status}: ${body.slice(0, 300)}`,
      );
    }
    return { ms: elapsed, count: JSON.parse(body).count };
  };
  for (let i = 0; i < SEARCH_WARMUP_REQUESTS; i++) await run(pick());
  const timings = [];
  const byQuery = new Map();
  for (let i = 0; i < SEARCH_REQUESTS; i++) {
    checkInterrupted('searching');
    const query = pick();
    const { ms: elapsed, count: hits } = await run(query);
    timings.push(elapsed);
    const entry = byQuery.get(query) ?? { query, hits, timings: [] };
    entry.timings.push(elapsed);
    byQuery.set(query, entry);
  }
  const queries = [...byQuery.values()]
    .map((q) => ({
      query: q.query,
      pages: q.hits,
      runs: q.timings.length,
      medianMs: median(q.timings),
    }))
    .sort((a, b) => b.medianMs - a.medianMs);
  return {
    requests: timings.length,
    concurrency: 1,
    p50Ms: percentile(timings, 50),
    p95Ms: percentile(timings, 95),
    p99Ms: percentile(timings, 99),
    maxMs: Math.max(...timings),
    queries,
  };
}

// ---------------------------------------------------------------- content generation

const QUERIES = [
  'configuration',
  'access token',
  'webhook',
  'webhook retries',
  'deploy',
  'deployment kubernetes',
  'rate limit',
  'authentication sso',
  'saml',
  'password reset',
  'database migration',
  'backup restore',
  'api key',
  'error',
  'permission role',
  'billing invoice',
  'search index',
  'install docker',
  'environment variable',
  'certificate tls',
  'auth',
  'conf',
  'kube',
  'encryption at rest',
  'audit log retention',
  'failover region',
  'timeout retry',
  'scim provisioning',
  'websocket',
  'troubleshooting latency',
];

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
function key(rng) {
  let out = '';
  for (let i = 0; i < 8; i++) out += KEY_ALPHABET[Math.floor(rng() * 64)];
  return out;
}

const leaf = (text) => ({ object: 'leaf', text, marks: [] });

function block(rng, type, text) {
  return {
    object: 'block',
    key: key(rng),
    type,
    data: {},
    nodes: [{ object: 'text', key: key(rng), leaves: [leaf(text)] }],
  };
}

/**
 * A GitBook document (as markdownToDocument makes them) from a seed, so it can be made again
 * to be edited: a lead of one or two paragraphs, then HEADINGS_PER_PAGE headings each
 * followed by one or two paragraphs of two or three sentences.
 */
function documentFor(seed) {
  const rng = mulberry32(seed * 2654435761);
  const paragraph = () => {
    const sentences = [];
    for (let i = between(rng, 2, 3); i > 0; i--) sentences.push(sentence(rng));
    return block(rng, 'paragraph', sentences.join(' '));
  };
  const nodes = [];
  for (let i = between(rng, 1, 2); i > 0; i--) nodes.push(paragraph());
  for (let h = 0; h < HEADINGS_PER_PAGE; h++) {
    nodes.push(
      block(
        rng,
        'heading-2',
        capitalize(`${VERBS[h % VERBS.length].toLowerCase()} ${term(rng)} ${term(rng)}`),
      ),
    );
    for (let i = between(rng, 1, 2); i > 0; i--) nodes.push(paragraph());
  }
  return { object: 'document', data: {}, nodes };
}

// ---------------------------------------------------------------- report

function printReport(report) {
  const e = report.editSummary;
  const pass = (met) => (met ? 'PASS' : 'MISS');
  log(`\nDatabase: ${report.database.description}`);
  log(
    `${report.cpus} CPUs shared by Bindery, the database, this process and autocannon; 1-minute load average ` +
      `${report.loadAverage.atStart[0].toFixed(1)} at start, ${report.loadAverage.beforeReads.toFixed(1)} before the reads, ` +
      `${report.loadAverage.atEnd[0].toFixed(1)} at the end`,
  );
  log(
    `Space: ${report.generation.pages} pages (${report.settings.shape.join(' × ')}), ${report.indexBuild.sections} sections; ` +
      `content_objects ${mb(report.storage.contentObjectsBytes)}, page_sections ${mb(report.storage.pageSectionsBytes)} on disk`,
  );
  log(`Generation ${s(report.generation.ms)}, search index build ${s(report.indexBuild.ms)}\n`);
  const rows = [
    ['measure', 'value', 'target'],
    [
      '1. one-page edit: objects written (max of edits)',
      String(e.maxObjects),
      `≤ ${TARGETS.editObjects} ${pass(report.met.editObjects)}`,
    ],
    [
      '1. one-page edit: bytes written (max of edits)',
      kb(e.maxBytes),
      `≤ 64 KB ${pass(report.met.editBytes)}`,
    ],
    [
      `2. commitOnPrimary, incl. re-index (median of ${report.edits.length})`,
      ms(e.commitMedianMs),
      '',
    ],
    ...report.reads.flatMap((r) => [
      [`3. ${r.target} p50`, ms(r.p50Ms), ''],
      [
        `3. ${r.target} p99`,
        `${ms(r.p99Ms)} (${r.reqPerSec.toFixed(0)} req/s, non-2xx ${r.non2xx}, errors ${r.errors + r.timeouts})`,
        '',
      ],
    ]),
    [
      '4. search p95 (one at a time)',
      ms(report.search.p95Ms),
      `≤ ${TARGETS.searchP95Ms} ms ${pass(report.met.searchP95)}`,
    ],
    [
      `5. re-index after a one-page edit (median of ${report.edits.length})`,
      ms(e.reindexMedianMs),
      '',
    ],
    [
      `6. merge a one-page change request, as created (median of ${report.merges.length / 2})`,
      ms(report.mergeSummary.asCreatedMedianMs),
      '',
    ],
    [
      `6. merge a one-page change request, primary moved (median of ${report.merges.length / 2})`,
      ms(report.mergeSummary.primaryMovedMedianMs),
      '',
    ],
    [
      '6. merge, slowest',
      ms(report.mergeSummary.maxMs),
      `≤ ${TARGETS.mergeMs} ms ${pass(report.met.merge)}`,
    ],
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  for (const [i, row] of rows.entries()) {
    log(
      row
        .map((cell, c) => cell.padEnd(widths[c]))
        .join('  ')
        .trimEnd(),
    );
    if (i === 0) log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
  log('\nSlowest search queries (median ms, matching pages):');
  for (const q of report.search.queries.slice(0, 5)) {
    log(`  ${JSON.stringify(q.query)}: ${ms(q.medianMs)}, ${q.pages} pages`);
  }
}

const kb = (value) => `${(value / 1024).toFixed(1)} KB`;
const mb = (value) => `${(value / 1024 / 1024).toFixed(1)} MB`;

runMain(main);
