'use strict';
/* global fetch */
/**
 * `node bench/published.js` after `npm run build`: a published page view on a site of 1,000
 * pages (issue 21). What GitBook's site renderer asks for each view of a page it has not cached:
 * the URL lookup (`POST /v1/urls/published`, no token) and the page's document with the site
 * token the lookup gave (`GET /v1/spaces/{space}/revisions/{revision}/page/{page}/document`).
 * The lookup is compared with a bare `node:http` + `pg` server (published-baseline.js) that
 * runs the same statement and signs the same kind of token, with a second Bindery process whose
 * lookup cache is off (PUBLISHED_LOOKUP_CACHE_SECONDS=0: the same work as the baseline); each
 * server in its own process, warmed up, alternated, on the same database. Latency is measured
 * twice: under 64 connections (throughput; queueing included) and with one connection (what
 * one request costs). See bench/README.md, "Published benchmark".
 *
 * Env: DATABASE_URL (PostgreSQL server for a throwaway database; unset = embedded PGlite),
 * BENCH_DURATION (seconds per run, default 10), BENCH_CONNECTIONS (default 64), BENCH_WARMUP
 * (seconds, default 5), BENCH_PUBLISHED_PAGES (default 1000), BENCH_ROUNDS (default 2).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { performance } = require('node:perf_hooks');
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
  summarize,
  median,
} = require('./lib');

const DURATION = positiveNumber('BENCH_DURATION', 10);
const CONNECTIONS = Math.ceil(positiveNumber('BENCH_CONNECTIONS', 64));
/** One connection: each request's own latency, no queueing. */
const LATENCY_CONNECTIONS = 1;
const WARMUP = positiveNumber('BENCH_WARMUP', 5);
const PAGES = Math.ceil(positiveNumber('BENCH_PUBLISHED_PAGES', 1000));
const ROUNDS = Math.ceil(positiveNumber('BENCH_ROUNDS', 2));
const CHANGES_PER_WRITE = 50;
const TARGETS = { p50Ms: 5, p99Ms: 25 };
/** Viewers making page views at once, and the CPU one uncached page view may cost Bindery. */
const PAGE_VIEWERS = 4;
const PAGE_VIEW_CPU_MS = 5;
const SETTLE_MS = 1000;
const SITES_URL = 'http://docs.localhost/{organization}';

async function main() {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const database = process.env.DATABASE_URL
    ? await createPostgresDatabase(process.env.DATABASE_URL)
    : await startEmbeddedDatabase('embedded PGlite (in memory, served from this bench process)');
  log(`Database: ${database.description}`);

  const adminToken = randomBytes(36).toString('base64url');
  const secretKey = randomBytes(32).toString('hex');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-bench-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const binderyLog = path.join(RESULTS_DIR, `${stamp}-published-bindery.log`);
  const bindery = startChild('bindery', [BINDERY_MAIN], binderyLog, {
    DATABASE_URL: database.url,
    DATABASE_PREPARED_STATEMENTS: String(database.kind === 'postgresql'),
    PORT: String(port),
    HOST: '127.0.0.1',
    SEED_DEMO: 'false',
    ADMIN_TOKEN: adminToken,
    SECRET_KEY: secretKey,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
    DATA_DIR: dataDir,
    SITES_URL,
  });
  const binderyUrl = `http://127.0.0.1:${port}`;
  await waitForHealth(bindery, `${binderyUrl}/health`, 60_000);
  // The same, without the lookup cache, once the first has migrated the database.
  const uncachedPort = await freePort();
  const uncached = startChild(
    'bindery-uncached',
    [BINDERY_MAIN],
    path.join(RESULTS_DIR, `${stamp}-published-bindery-uncached.log`),
    {
      DATABASE_URL: database.url,
      DATABASE_PREPARED_STATEMENTS: String(database.kind === 'postgresql'),
      PORT: String(uncachedPort),
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
      ADMIN_TOKEN: adminToken,
      SECRET_KEY: secretKey,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '100000000',
      DATA_DIR: dataDir,
      SITES_URL,
      PUBLISHED_LOOKUP_CACHE_SECONDS: '0',
      JOBS_IN_PROCESS: 'false',
    },
  );
  const uncachedUrl = `http://127.0.0.1:${uncachedPort}`;
  await waitForHealth(uncached, `${uncachedUrl}/health`, 60_000);

  const seed = await seedSite(binderyUrl, adminToken);
  log(`Seeded a published site of ${seed.pages} pages: ${seed.siteUrl}`);

  const baselinePort = await freePort();
  const baselineLog = path.join(RESULTS_DIR, `${stamp}-published-baseline.log`);
  const baseline = startChild(
    'baseline',
    [path.join(__dirname, 'published-baseline.js')],
    baselineLog,
    { DATABASE_URL: database.url, PORT: String(baselinePort), SECRET_KEY: secretKey },
  );
  const baselineUrl = `http://127.0.0.1:${baselinePort}`;
  await waitForHealth(baseline, `${baselineUrl}/health`, 30_000);

  const lookupBody = JSON.stringify({
    url: `${seed.siteUrl}/${seed.pagePath}`,
    visitor: { type: 'human', unsignedClaims: {} },
    redirectOnError: false,
  });
  const lookup = JSON.parse(
    await request(binderyUrl, 'POST', '/v1/urls/published', null, lookupBody),
  );
  const ceiling = JSON.parse(
    await request(baselineUrl, 'POST', '/v1/urls/published', null, lookupBody),
  );
  for (const key of ['site', 'siteSpace', 'space', 'pathname', 'basePath', 'complete']) {
    if (JSON.stringify(lookup[key]) !== JSON.stringify(ceiling[key]))
      throw new Error(`baseline differs on ${key}: ${ceiling[key]} vs ${lookup[key]}`);
  }
  const documentPath = `/v1/spaces/${seed.spaceId}/revisions/${seed.revisionId}/page/${seed.pageId}/document?evaluated=deterministic-only&dereferenced=reusable-contents`;
  const targets = {
    'bindery lookup': { url: `${binderyUrl}/v1/urls/published`, method: 'POST', body: lookupBody },
    'bindery lookup, no cache': {
      url: `${uncachedUrl}/v1/urls/published`,
      method: 'POST',
      body: lookupBody,
    },
    'baseline lookup': {
      url: `${baselineUrl}/v1/urls/published`,
      method: 'POST',
      body: lookupBody,
    },
    'bindery page document': {
      url: `${binderyUrl}${documentPath}`,
      method: 'GET',
      headers: { authorization: `Bearer ${lookup.apiToken}` },
    },
  };
  for (const [name, target] of Object.entries(targets)) {
    const response = await fetch(target.url, {
      method: target.method,
      headers: { 'content-type': 'application/json', ...target.headers },
      body: target.body,
    });
    if (response.status !== 200)
      throw new Error(`${name}: ${response.status} ${await response.text()}`);
  }

  log(
    `\nWarm-up ${WARMUP} s per target; ${ROUNDS} rounds of ${DURATION} s, ${CONNECTIONS} connections`,
  );
  for (const target of Object.values(targets)) await load(target, WARMUP);
  const serverOf = (name) =>
    name.startsWith('baseline') ? baseline : name.includes('no cache') ? uncached : bindery;
  const runs = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, target] of Object.entries(targets)) {
      await sleep(SETTLE_MS);
      const server = serverOf(name);
      const cpuBefore = cpuSeconds(server.pid);
      const result = await load(target, DURATION);
      const cpuAfter = cpuSeconds(server.pid);
      const run = summarize(name, result, { durationS: DURATION, connections: CONNECTIONS });
      run.round = round;
      run.serverCpuMsPerRequest =
        cpuBefore === null || cpuAfter === null || run.requests === 0
          ? null
          : ((cpuAfter - cpuBefore) * 1000) / run.requests;
      runs.push(run);
      log(
        `  round ${round} ${name}: ${run.reqPerSec.toFixed(0)} req/s, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms, ` +
          `CPU ${run.serverCpuMsPerRequest?.toFixed(2)} ms/req, non-2xx ${run.non2xx}, errors ${run.errors}`,
      );
    }
  }

  log(`\nLatency with ${LATENCY_CONNECTIONS} connection (each request alone):`);
  const single = [];
  for (const [name, target] of Object.entries(targets)) {
    await sleep(SETTLE_MS);
    const result = await load(target, DURATION, LATENCY_CONNECTIONS);
    const run = summarize(name, result, { durationS: DURATION, connections: LATENCY_CONNECTIONS });
    single.push(run);
    log(`  ${name}: ${run.reqPerSec.toFixed(0)} req/s, p50 ${run.p50Ms} ms, p99 ${run.p99Ms} ms`);
  }

  log(`\nPage views as the renderer makes them (${PAGE_VIEWERS} viewers, ${DURATION} s each):`);
  const pageViews = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, url, server] of [
      ['bindery', binderyUrl, bindery],
      ['bindery, no cache', uncachedUrl, uncached],
    ]) {
      await sleep(SETTLE_MS);
      const views = await measurePageViews(url, server, lookupBody, seed);
      pageViews.push({ target: `page view ${name}`, round, ...views });
      log(
        `  round ${round} ${name}: ${views.viewsPerSec.toFixed(0)} views/s, p50 ${views.p50Ms.toFixed(1)} ms, ` +
          `p99 ${views.p99Ms.toFixed(1)} ms, CPU ${views.cpuMsPerView?.toFixed(2)} ms/view (${views.calls} calls each); ` +
          `each call alone, CPU ms: ${Object.entries(views.cpuMsPerCall)
            .map(([call, ms]) => `${call} ${ms?.toFixed(2)}`)
            .join(', ')}`,
      );
    }
  }
  const viewCpu = (name) =>
    median(pageViews.filter((v) => v.target === name).map((v) => v.cpuMsPerView));

  // A page view is one lookup then one document read, one after the other.
  const mean = (name, key, of = runs) => {
    const matching = of.filter((run) => run.target === name);
    return matching.reduce((sum, run) => sum + run[key], 0) / matching.length;
  };
  const viewOf = (of) => ({
    p50Ms: mean('bindery lookup', 'p50Ms', of) + mean('bindery page document', 'p50Ms', of),
    p99Ms: mean('bindery lookup', 'p99Ms', of) + mean('bindery page document', 'p99Ms', of),
  });
  const view = viewOf(runs);
  const alone = viewOf(single);
  const report = {
    date: new Date().toISOString(),
    database: database.description,
    cpus: os.cpus().length,
    settings: { durationS: DURATION, warmupS: WARMUP, connections: CONNECTIONS, rounds: ROUNDS },
    pages: seed.pages,
    runs,
    single,
    lookupRatio:
      mean('bindery lookup, no cache', 'reqPerSec') / mean('baseline lookup', 'reqPerSec'),
    cachedLookupRatio: mean('bindery lookup', 'reqPerSec') / mean('baseline lookup', 'reqPerSec'),
    pageView: view,
    pageViewAlone: alone,
    pageViews,
    pageViewCpuMs: {
      cached: viewCpu('page view bindery'),
      uncached: viewCpu('page view bindery, no cache'),
      target: PAGE_VIEW_CPU_MS,
    },
    targets: TARGETS,
  };
  log(
    `\nLookup throughput, Bindery/baseline: ${report.lookupRatio.toFixed(2)} without the cache, ` +
      `${report.cachedLookupRatio.toFixed(2)} with it.\n` +
      `Page view (lookup + document, sum of the means): at ${CONNECTIONS} connections p50 ` +
      `${view.p50Ms.toFixed(1)} ms, p99 ${view.p99Ms.toFixed(1)} ms; alone p50 ${alone.p50Ms.toFixed(1)} ms, ` +
      `p99 ${alone.p99Ms.toFixed(1)} ms (targets p50 ≤ ${TARGETS.p50Ms}, p99 ≤ ${TARGETS.p99Ms}).\n` +
      `Bindery CPU per page view (${PAGE_VIEW_CALLS.join(', ')}; median of the rounds): ` +
      `${report.pageViewCpuMs.uncached.toFixed(2)} ms uncached (target ≤ ${PAGE_VIEW_CPU_MS}: ` +
      `${report.pageViewCpuMs.uncached <= PAGE_VIEW_CPU_MS ? 'PASS' : 'MISS'}), ` +
      `${report.pageViewCpuMs.cached.toFixed(2)} ms with the lookup cache.`,
  );
  const file = path.join(RESULTS_DIR, `${stamp}-published.json`);
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  log(`Results: ${file}`);
}

/** The calls of one page view, in the order the renderer makes them (after the lookup). */
const PAGE_VIEW_CALLS = ['lookup', 'site', 'space', 'revision', 'page document', 'page meta links'];

/**
 * PAGE_VIEWERS viewers, each making page views one after the other for DURATION seconds
 * against one Bindery process: the URL lookup, then with the site token it gives the published
 * site (structure and customization), the space, the revision (its page tree), the page's
 * document and its meta links. Views per second, each view's latency, and the CPU the server
 * spent per view.
 */
async function measurePageViews(baseUrl, server, lookupBody, seed) {
  const lookup = JSON.parse(await request(baseUrl, 'POST', '/v1/urls/published', null, lookupBody));
  const calls = pageViewCalls(lookup, seed, lookupBody);
  const view = async () => {
    // Each view looks the URL up afresh and reads with the token of its own lookup.
    const { apiToken } = JSON.parse(
      await request(baseUrl, 'POST', '/v1/urls/published', null, lookupBody),
    );
    for (const pathname of calls.slice(1).map((c) => c.path))
      await request(baseUrl, 'GET', pathname, apiToken);
  };
  const views = await measureLoop(server, view);
  // Then each call alone, as many times: what each costs the server.
  const perCall = {};
  for (const { name, method, path: pathname, body } of calls) {
    const one = await measureLoop(server, () =>
      request(baseUrl, method, pathname, lookup.apiToken, body),
    );
    perCall[name] = one.cpuMsPerRun;
  }
  return {
    views: views.runs,
    calls: calls.length,
    viewsPerSec: views.runsPerSec,
    p50Ms: views.p50Ms,
    p99Ms: views.p99Ms,
    cpuMsPerView: views.cpuMsPerRun,
    cpuMsPerCall: perCall,
  };
}

/** The calls of one page view after `lookup` (its own first), as PAGE_VIEW_CALLS names them. */
function pageViewCalls(lookup, seed, lookupBody) {
  const space = `/v1/spaces/${lookup.space}`;
  const revision = `${space}/revisions/${seed.revisionId}`;
  const paths = [
    '/v1/urls/published',
    `/v1/orgs/${lookup.organization}/sites/${lookup.site}/published`,
    space,
    `${revision}?metadata=false`,
    `${revision}/page/${seed.pageId}/document?evaluated=deterministic-only&dereferenced=reusable-contents`,
    `${revision}/page/${seed.pageId}/meta-links`,
  ];
  return PAGE_VIEW_CALLS.map((name, i) =>
    i === 0
      ? { name, method: 'POST', path: paths[0], body: lookupBody }
      : { name, method: 'GET', path: paths[i] },
  );
}

async function request(baseUrl, method, pathname, token, body) {
  const response = await fetch(baseUrl + pathname, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body,
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${method} ${pathname}: ${response.status} ${text}`);
  return text;
}

/**
 * `run` by PAGE_VIEWERS callers at once, each one run after the other, for DURATION seconds
 * (after 20 runs to warm up): runs per second, their latency, and the server's CPU per run.
 */
async function measureLoop(server, run) {
  for (let i = 0; i < 20; i++) await run();
  const latencies = [];
  const cpuBefore = cpuSeconds(server.pid);
  const started = performance.now();
  const until = started + DURATION * 1000;
  await Promise.all(
    Array.from({ length: PAGE_VIEWERS }, async () => {
      while (performance.now() < until) {
        const start = performance.now();
        await run();
        latencies.push(performance.now() - start);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = cpuSeconds(server.pid);
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return {
    runs: latencies.length,
    runsPerSec: latencies.length / seconds,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    cpuMsPerRun:
      cpuBefore === null || cpuAfter === null
        ? null
        : ((cpuAfter - cpuBefore) * 1000) / latencies.length,
  };
}

function load(target, duration, connections = CONNECTIONS) {
  return autocannon({
    url: target.url,
    method: target.method,
    headers: { 'content-type': 'application/json', ...target.headers },
    body: target.body,
    connections,
    duration,
  });
}

/** A user, an organization, a space of PAGES pages (merged in one change request), a site. */
async function seedSite(baseUrl, adminToken) {
  const { token } = await api(
    baseUrl,
    'POST',
    '/v1/admin/users',
    adminToken,
    { email: `published-${randomBytes(3).toString('hex')}@example.com`, displayName: 'Bench' },
    201,
  );
  const org = await api(baseUrl, 'POST', '/v1/orgs', token, { title: 'Published Bench' }, 201);
  const space = await api(
    baseUrl,
    'POST',
    `/v1/orgs/${org.id}/spaces`,
    token,
    { title: 'Docs' },
    201,
  );
  const changeRequest = await api(
    baseUrl,
    'POST',
    `/v1/spaces/${space.id}/change-requests`,
    token,
    {},
    201,
  );
  for (let first = 0; first < PAGES; first += CHANGES_PER_WRITE) {
    const changes = [];
    for (let i = first; i < Math.min(PAGES, first + CHANGES_PER_WRITE); i++) {
      changes.push({
        operation: 'insert_page',
        title: `Page ${i}`,
        document: {
          markdown: `# Page ${i}\n\nSome text about topic ${i}, with [a link](https://example.com).\n\n## Details\n\n- one\n- two\n`,
        },
      });
    }
    await api(
      baseUrl,
      'POST',
      `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`,
      token,
      { changes },
      200,
    );
  }
  await api(
    baseUrl,
    'POST',
    `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`,
    token,
    {},
    200,
  );
  const site = await api(
    baseUrl,
    'POST',
    `/v1/orgs/${org.id}/sites`,
    token,
    { title: 'Docs' },
    201,
  );
  await api(
    baseUrl,
    'POST',
    `/v1/orgs/${org.id}/sites/${site.id}/site-spaces`,
    token,
    { spaceId: space.id },
    201,
  );
  await api(baseUrl, 'POST', `/v1/orgs/${org.id}/sites/${site.id}/publish`, token, undefined, 200);
  const content = await api(
    baseUrl,
    'GET',
    `/v1/spaces/${space.id}/content`,
    token,
    undefined,
    200,
  );
  const page = content.pages[Math.floor(content.pages.length / 2)];
  return {
    pages: content.pages.length,
    siteUrl: `https://docs.localhost/${org.id}/${site.id}`,
    spaceId: space.id,
    revisionId: content.id,
    pageId: page.id,
    pagePath: page.path,
  };
}

runMain(main);
