'use strict';
/**
 * `node bench/changes.js` after `npm run build`: what a one-page change request changes, in a
 * large space. For each shape (default: 20 × 20 × 25 = 10,420 pages three levels deep, and
 * 10,000 pages side by side at the top level) a space is generated in-process through the
 * tree's `commit()`; then change requests, each editing one random page over HTTP, are asked
 * for their semantic changes (getChangeRequestChanges) and their page diff
 * (getChangeRequestPageDiff), one request at a time, beside getChangeRequestById as a baseline
 * (the same token, access and change request lookups, no content). See bench/README.md,
 * "Changes benchmark".
 *
 * Env: DATABASE_URL (PostgreSQL server for a throwaway database; unset = embedded PGlite in
 * this process), BENCH_CHANGES_SHAPES (comma-separated; `AxBxC` pages per level or `N` flat,
 * default `20x20x25,10000`), BENCH_CHANGES_CRS (change requests per shape, default 20),
 * BENCH_CHANGES_REQUESTS (requests per change request and route, default 10).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const {
  RESULTS_DIR,
  positiveNumber,
  log,
  cleanups,
  runMain,
  checkInterrupted,
  api,
} = require('./lib');
const {
  DIST,
  startBinderyWithOrganization,
  bootApp,
  BufferedStore,
  moveSpaceTo,
  onePageChangeRequest,
} = require('./engine');
const { percentile } = require('./text');

const SHAPES = (process.env.BENCH_CHANGES_SHAPES || '20x20x25,10000').split(',').map(parseShape);
const CHANGE_REQUESTS = Math.ceil(positiveNumber('BENCH_CHANGES_CRS', 20));
const REQUESTS = Math.ceil(positiveNumber('BENCH_CHANGES_REQUESTS', 10));
const TARGET_P95_MS = 20;

function parseShape(raw) {
  const levels = raw.split('x').map(Number);
  if (levels.length > 3 || !levels.every((n) => Number.isInteger(n) && n > 0)) {
    throw new Error(
      `A shape is one to three positive integers like 20x20x25 or 10000 (got ${raw})`,
    );
  }
  return levels;
}

async function main() {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const loadAtStart = os.loadavg();
  const server = await startBinderyWithOrganization({ stamp, name: 'changes' });
  const bindery = await bootApp(server.env);
  cleanups.push(() => bindery.close());
  const { DataSource } = require('typeorm');
  const engine = {
    app: bindery.app,
    dataSource: bindery.app.get(DataSource),
    content: bindery.app.get(
      require(path.join(DIST, 'content-engine', 'content-engine')).ContentEngine,
    ),
  };

  const shapes = [];
  for (const shape of SHAPES) {
    checkInterrupted('generating');
    const space = await api(
      server.baseUrl,
      'POST',
      `/v1/orgs/${server.org.id}/spaces`,
      server.token,
      { title: `Handbook ${shape.join('x')}`, empty: true },
      201,
    );
    const generation = await generate(engine, space.id, server.userId, shape);
    log(
      `Generated ${generation.pages} pages (${shape.join(' × ')}) in ${s(generation.ms)}; ` +
        `the root lists ${generation.topLevel} pages (${kb(generation.rootBytes)})`,
    );
    await engine.dataSource.query('ANALYZE content_objects, revisions');
    shapes.push(await measure(server, engine, space.id, shape, generation));
  }

  const report = {
    date: new Date().toISOString(),
    database: { kind: server.database.kind, description: server.database.description },
    node: process.version,
    cpus: os.cpus().length,
    loadAverage: { atStart: loadAtStart, atEnd: os.loadavg() },
    settings: { shapes: SHAPES, changeRequests: CHANGE_REQUESTS, requests: REQUESTS },
    targetP95Ms: TARGET_P95_MS,
    shapes,
    logs: { bindery: server.binderyLog },
  };
  printReport(report);
  const resultsFile = path.join(RESULTS_DIR, `${stamp}-changes.json`);
  fs.writeFileSync(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
  log(`\nResults: ${resultsFile}`);
}

/**
 * The space's pages in one revision on top of its (empty) primary, each with a one-paragraph
 * document: the diff reads documents only for the page diff, so their size does not matter here.
 */
async function generate(engine, spaceId, userId, shape) {
  const { commit } = require(path.join(DIST, 'content-engine', 'tree', 'commit'));
  const { newId } = require(path.join(DIST, 'platform', 'ids', 'ids'));
  const started = performance.now();
  const leafIds = [];
  let pages = 0;
  const result = await engine.dataSource.transaction(async (manager) => {
    const [row] = await manager.query(
      'SELECT s.revision_id, r.tree FROM spaces s JOIN revisions r ON r.id = s.revision_id WHERE s.id = $1',
      [spaceId],
    );
    const store = new BufferedStore(engine.content.objectStore(manager));
    const changes = [];
    const addLevel = async (parent, depth) => {
      for (let i = 0; i < shape[depth]; i++) {
        const id = newId();
        pages++;
        changes.push({
          operation: 'insert_page',
          id,
          meta: { title: `Page ${pages}` },
          document: await store.put('document', documentFor(pages)),
          ...(parent ? { into: parent } : {}),
        });
        if (depth === shape.length - 1) leafIds.push(id);
        else await addLevel(id, depth + 1);
      }
    };
    await addLevel(null, 0);
    const tree = await commit(store, row.tree, changes);
    const rootBytes = Buffer.byteLength(store.canonicalJson(await store.get(tree)));
    await store.flush(manager);
    await moveSpaceTo(manager, { spaceId, parent: row.revision_id, tree, userId });
    return { rootBytes };
  });
  return {
    pages,
    topLevel: shape[0],
    leafIds,
    rootBytes: result.rootBytes,
    ms: performance.now() - started,
  };
}

function documentFor(n) {
  return {
    object: 'document',
    data: {},
    nodes: [
      {
        object: 'block',
        key: `p${n}`,
        type: 'paragraph',
        data: {},
        nodes: [
          {
            object: 'text',
            leaves: [{ object: 'leaf', text: `The body of page ${n}.`, marks: [] }],
          },
        ],
      },
    ],
  };
}

/**
 * `CHANGE_REQUESTS` change requests, each editing one random deepest page over HTTP, then asked
 * `REQUESTS` times for their changes and their page diff. The first request of each is also
 * reported apart: the head's new objects are not cached yet.
 */
async function measure(server, engine, spaceId, shape, generation) {
  const { baseUrl, token } = server;
  const base = `/v1/spaces/${spaceId}/change-requests`;
  const timed = async (pathname) => {
    const started = performance.now();
    const body = await api(baseUrl, 'GET', pathname, token, undefined, 200);
    return { ms: performance.now() - started, body };
  };
  /** Per route: the first request of each change request, and the ones after it. */
  const samples = {
    changes: { first: [], repeated: [] },
    pageDiff: { first: [], repeated: [] },
    changeRequest: { first: [], repeated: [] },
  };
  let last;
  for (let i = 0; i < CHANGE_REQUESTS; i++) {
    checkInterrupted('measuring');
    const pageId = generation.leafIds[(i * 7919) % generation.leafIds.length];
    const { cr } = await onePageChangeRequest({
      baseUrl,
      token,
      spaceId,
      pageId,
      subject: `Bench ${i + 1}`,
      markdown: `The body of page ${i}, edited.\n\nAnd a new paragraph.\n`,
    });
    for (const [route, pathname] of [
      ['changes', `${base}/${cr.id}/changes`],
      ['pageDiff', `${base}/${cr.id}/changes/pages/${pageId}`],
      // The baseline: the change request itself (the same access checks and lookups).
      ['changeRequest', `${base}/${cr.id}`],
    ]) {
      for (let r = 0; r < REQUESTS; r++) {
        const { ms, body } = await timed(pathname);
        if (
          route === 'changes' &&
          (body.changes.length !== 1 || body.changes[0].type !== 'page_edited')
        ) {
          throw new Error(`change request ${i + 1}: unexpected changes ${JSON.stringify(body)}`);
        }
        samples[route][r === 0 ? 'first' : 'repeated'].push(ms);
      }
    }
    last = cr.id;
  }
  const reads = await objectReads(engine, spaceId, last);
  const stats = (values) => ({
    count: values.length,
    p50Ms: percentile(values, 50),
    p95Ms: percentile(values, 95),
    p99Ms: percentile(values, 99),
    maxMs: Math.max(...values),
  });
  const result = {
    shape,
    pages: generation.pages,
    rootBytes: generation.rootBytes,
    generationMs: generation.ms,
    changes: routeStats(samples.changes, stats),
    pageDiff: routeStats(samples.pageDiff, stats),
    changeRequest: routeStats(samples.changeRequest, stats),
    reads,
  };
  result.met = result.changes.all.p95Ms <= TARGET_P95_MS;
  return result;
}

/** All requests of a route, its first requests (head not cached yet) and the repeated ones. */
function routeStats({ first, repeated }, stats) {
  return { all: stats([...first, ...repeated]), first: stats(first), repeated: stats(repeated) };
}

/**
 * The objects the tree diff reads for the last change request, uncached, from the database
 * (counted in this process, where the engine runs the same code as the server).
 */
async function objectReads(engine, spaceId, changeRequestId) {
  const { treeChanges } = require(path.join(DIST, 'content-engine', 'diff', 'tree-changes'));
  const [row] = await engine.dataSource.query(
    `SELECT head.tree AS head, base.tree AS base FROM change_requests cr
       JOIN revisions head ON head.id = cr.revision
       JOIN revisions base ON base.id = COALESCE(cr.revision_merged_ancestor, cr.revision_initial)
      WHERE cr.id = $1 AND cr.space_id = $2`,
    [changeRequestId, spaceId],
  );
  const store = engine.content.objectStore(engine.dataSource.manager);
  let objects = 0;
  let bytes = 0;
  const counting = {
    get: async (hash) => {
      const data = await store.get(hash);
      objects++;
      bytes += Buffer.byteLength(JSON.stringify(data));
      return data;
    },
    put: () => Promise.reject(new Error('the diff writes nothing')),
  };
  const started = performance.now();
  const changes = await treeChanges(counting, row.base, row.head);
  const uncachedMs = performance.now() - started;
  // The same diff through the reads' cache, as the server runs it once the objects are cached.
  const { ContentReader } = require(path.join(DIST, 'content-engine', 'reads', 'content-reader'));
  const reader = engine.app.get(ContentReader);
  const cached = [];
  for (let i = 0; i < 50; i++) {
    const at = performance.now();
    await treeChanges(reader.objects, row.base, row.head);
    if (i >= 10) cached.push(performance.now() - at);
  }
  return {
    objects,
    bytes,
    changes: changes.length,
    uncachedMs,
    cachedP50Ms: percentile(cached, 50),
    cachedP95Ms: percentile(cached, 95),
  };
}

function printReport(report) {
  log(
    `\nChanges of a one-page change request (${report.database.kind}; ${report.cpus} CPUs, ` +
      `load ${report.loadAverage.atStart[0].toFixed(1)} → ${report.loadAverage.atEnd[0].toFixed(1)}); ` +
      `${CHANGE_REQUESTS} change requests × ${REQUESTS} requests, one at a time:`,
  );
  for (const shape of report.shapes) {
    const line = (name, stats) =>
      `  ${name.padEnd(34)} p50 ${ms(stats.p50Ms)}  p95 ${ms(stats.p95Ms)}  p99 ${ms(stats.p99Ms)}  max ${ms(stats.maxMs)}`;
    log(`\n${shape.shape.join(' × ')} (${shape.pages} pages; root ${kb(shape.rootBytes)}):`);
    for (const [name, route] of [
      ['getChangeRequestChanges', shape.changes],
      ['getChangeRequestPageDiff', shape.pageDiff],
      ['getChangeRequestById (baseline)', shape.changeRequest],
    ]) {
      log(line(name, route.all));
      log(line('  first request of each', route.first));
      log(line('  repeated requests', route.repeated));
    }
    log(
      `  tree diff, uncached, in process: ${shape.reads.objects} objects read ` +
        `(${kb(shape.reads.bytes)}) in ${ms(shape.reads.uncachedMs)}; cached p50 ` +
        `${ms(shape.reads.cachedP50Ms)}, p95 ${ms(shape.reads.cachedP95Ms)}`,
    );
    log(
      `  target p95 ≤ ${TARGET_P95_MS} ms for getChangeRequestChanges: ${shape.met ? 'PASS' : 'MISS'}`,
    );
  }
}

const ms = (value) => `${value.toFixed(1)} ms`;
const s = (value) => `${(value / 1000).toFixed(1)} s`;
const kb = (value) => `${(value / 1024).toFixed(1)} KB`;

runMain(main);
