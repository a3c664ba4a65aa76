'use strict';
/* global fetch */
/**
 * `node bench/search.js` after `npm run build`: space search over a large index (default
 * 1,000,000 sections in one space). The sections are written straight into the index through
 * SearchIndexRepository.insertPages (the statement the SearchIndexer runs, with the text
 * analysed by `indexText`, so rows, lexicon and indexes are what indexing writes), without
 * documents or a tree: generating and committing 100,000 documents would take the content
 * pipeline most of an hour. Then: searches over HTTP one at a time (English words, prefixes,
 * accented words, Japanese, typos), the one-page index update, and table sizes. See
 * bench/README.md, "Search benchmark".
 *
 * Env: DATABASE_URL (PostgreSQL server for a throwaway database; unset = embedded PGlite in
 * this process, for small trials), BENCH_SEARCH_SECTIONS (default 1000000),
 * BENCH_SEARCH_REQUESTS (measured searches, default 300), BENCH_SEARCH_KEEP (set: keep the
 * database for EXPLAIN, and drop it yourself).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const {
  ROOT,
  RESULTS_DIR,
  positiveNumber,
  log,
  cleanups,
  runMain,
  checkInterrupted,
  createPostgresDatabase,
  startEmbeddedDatabase,
  api,
  timed,
  ms,
  s,
  startBindery,
  createOrganization,
} = require('./lib');
const { between, median, mulberry32, pageTitle, percentile, sentence } = require('./text');

const DIST = path.join(ROOT, 'dist', 'src');
const SECTIONS = Math.ceil(positiveNumber('BENCH_SEARCH_SECTIONS', 1_000_000));
const SEARCH_REQUESTS = Math.ceil(positiveNumber('BENCH_SEARCH_REQUESTS', 300));
const SEARCH_WARMUP_REQUESTS = 40;
const SECTIONS_PER_PAGE = 10;
/** Sections per insert statement, and statements per transaction. */
const INSERT_BATCH = 1000;
const BATCHES_PER_TRANSACTION = 10;
const UPDATES = 10;
const TARGETS = { searchP95Ms: 50 };

/** Rare words (identifiers, product names): the long tail that makes a real lexicon large. */
const RARE_WORDS = 200_000;
const SYLLABLES = 'ka lo mi ne ru sa ti vo ze an el in or ul br cr dr fl gr pl st tr qu'.split(' ');
function rareWord(n) {
  let word = '';
  for (let x = n + 7; word.length < 7; x = Math.floor(x / SYLLABLES.length)) {
    word += SYLLABLES[x % SYLLABLES.length];
  }
  return word;
}

/** Sentences in other languages, as documentation quotes them now and then. */
const FRENCH = [
  'Les paramètres de sécurité sont réglés dans l’espace.',
  'Vérifiez les événements reçus avant la fusion.',
  'La clé d’accès expire après trente jours.',
];
const JAPANESE = [
  'サイト内の全文検索を使うと、目的のページを素早く見つけられます。',
  'アクセストークンによる認証が必要です。',
  '設定画面からバックアップを復元してください。',
];
const GERMAN = ['Die Größenänderung behält das Seitenverhältnis bei.', 'Straße und Hausnummer.'];

/** What is searched, by kind. */
const QUERIES = {
  word: ['configuration', 'webhook', 'access token', 'database migration', 'saml', 'kubernetes'],
  rare: [rareWord(12345), rareWord(777), rareWord(150000)],
  prefix: ['conf', 'auth', 'kube', 'webhook ret', 'migr'],
  accented: ['parametres securite', 'événements', 'grossenanderung', 'strasse'],
  cjk: ['全文検索', 'アクセストークン', '復元'],
  typo: ['webhok', 'kubernets', 'authentcation', 'parametrs', `${rareWord(4242).slice(0, -1)}x`],
};

async function main() {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const loadAtStart = os.loadavg();
  const database = process.env.DATABASE_URL
    ? await createPostgresDatabase(process.env.DATABASE_URL)
    : await startEmbeddedDatabase('embedded PGlite (in this process): for small trials only');
  if (process.env.BENCH_SEARCH_KEEP && database.kind === 'postgresql') {
    // Kept for EXPLAIN afterwards: the drop registered last is taken back.
    cleanups.pop();
    log(`Keeping database ${database.name}: drop it yourself`);
  }
  log(`Database: ${database.description}`);

  const { env, baseUrl, adminToken } = await startBindery(database, 'search', stamp);
  const { token, org } = await createOrganization(baseUrl, adminToken, 'search', 'Search Bench');
  const space = await api(
    baseUrl,
    'POST',
    `/v1/orgs/${org.id}/spaces`,
    token,
    { title: 'Handbook', empty: true, language: 'en' },
    201,
  );
  log(`Bindery ready on ${baseUrl}; space ${space.id}`);

  const engine = await bootEngine(env);
  cleanups.push(() => engine.close());

  // The index, written as the indexer writes it.
  const pages = Math.ceil(SECTIONS / SECTIONS_PER_PAGE);
  const build = await timed(() => writeIndex(engine, space.id, pages));
  log(`Indexed ${pages} pages, ${pages * SECTIONS_PER_PAGE} sections in ${s(build.ms)}`);
  const analyze = await timed(() =>
    engine.dataSource.query('ANALYZE page_sections, page_search, search_lexicon'),
  );
  log(`ANALYZE in ${s(analyze.ms)}`);
  const sizes = await tableSizes(engine);
  for (const size of sizes) log(`  ${size.table}: ${size.rows} rows, ${size.total}`);

  // The one-page update: what a one-page merge's re-index writes (its tree walk aside).
  const updates = [];
  for (let i = 0; i < UPDATES; i++) {
    checkInterrupted('updating');
    updates.push(await onePageUpdate(engine, space.id, pages, i));
  }
  log(`One-page index update: median ${ms(median(updates))}, max ${ms(Math.max(...updates))}`);

  const search = await measureSearch(baseUrl, { authorization: `Bearer ${token}` }, space.id);
  const report = {
    sections: pages * SECTIONS_PER_PAGE,
    pages,
    buildMs: build.ms,
    sizes,
    updateMedianMs: median(updates),
    updates,
    search,
    database: database.description,
    load: { atStart: loadAtStart, atEnd: os.loadavg() },
  };
  fs.writeFileSync(
    path.join(RESULTS_DIR, `${stamp}-search.json`),
    `${JSON.stringify(report, null, 2)}\n`,
  );
  printReport(report);
}

async function bootEngine(env) {
  const { loadConfig } = require(path.join(DIST, 'platform', 'config', 'app-config'));
  const { createApp } = require(path.join(DIST, 'setup'));
  const search = (file) => require(path.join(DIST, 'content-engine', 'search', file));
  const { SearchIndexRepository } = search('search-index.repository');
  const { SEARCH_ANALYZER } = search('search-indexer');
  const { addPageSections, emptyColumns } = search('section-columns');
  const { DataSource } = require('typeorm');
  const config = loadConfig(
    { ...process.env, ...env },
    { JOBS_IN_PROCESS: false, DATABASE_POOL_SIZE: 2 },
  );
  const bindery = await createApp(config);
  return {
    dataSource: bindery.app.get(DataSource),
    index: bindery.app.get(SearchIndexRepository),
    analyzer: SEARCH_ANALYZER,
    addPageSections,
    emptyColumns,
    close: () => bindery.close(),
  };
}

/** The sections of page `n`: a lead and nine headings, two or three sentences each. */
function pageSections(n) {
  const rng = mulberry32(n * 2654435761 + 17);
  const paragraph = () => {
    const sentences = [];
    for (let i = between(rng, 2, 3); i > 0; i--) {
      const x = rng();
      if (x < 0.01) sentences.push(FRENCH[Math.floor(rng() * FRENCH.length)]);
      else if (x < 0.02) sentences.push(JAPANESE[Math.floor(rng() * JAPANESE.length)]);
      else if (x < 0.025) sentences.push(GERMAN[Math.floor(rng() * GERMAN.length)]);
      else {
        const rare = rng() < 0.3 ? ` ${rareWord(Math.floor(rng() * RARE_WORDS))}` : '';
        sentences.push(sentence(rng).replace(/\.$/, `${rare}.`));
      }
    }
    return sentences.join(' ');
  };
  const title = pageTitle(rng, 1);
  const sections = [{ id: '', title: '', body: paragraph() }];
  for (let h = 1; h < SECTIONS_PER_PAGE; h++) {
    const heading = pageTitle(rng, 1);
    sections.push({ id: `section-${h}`, title: heading, body: paragraph() });
  }
  return { id: `page-${n}`, title, path: `part-${n % 100}/page-${n}`, sections };
}

function columnsOf(engine, pages) {
  const columns = engine.emptyColumns();
  for (const page of pages) {
    const ancestors = [{ title: `Part ${Number(page.id.slice(5)) % 100}` }];
    engine.addPageSections(
      columns,
      { ...page, documentHash: null, ancestors },
      page.sections,
      'en',
    );
  }
  return columns;
}

async function writeIndex(engine, spaceId, pages) {
  const pagesPerBatch = INSERT_BATCH / SECTIONS_PER_PAGE;
  const started = performance.now();
  for (let first = 0; first < pages; first += pagesPerBatch * BATCHES_PER_TRANSACTION) {
    checkInterrupted('indexing');
    await engine.dataSource.transaction(async (manager) => {
      for (let b = 0; b < BATCHES_PER_TRANSACTION; b++) {
        const from = first + b * pagesPerBatch;
        if (from >= pages) break;
        const batch = [];
        for (let n = from; n < Math.min(pages, from + pagesPerBatch); n++) {
          batch.push(pageSections(n));
        }
        await engine.index.insertPages(
          spaceId,
          new Date(),
          'english',
          columnsOf(engine, batch),
          manager,
        );
      }
    });
    const done = Math.min(pages, first + pagesPerBatch * BATCHES_PER_TRANSACTION);
    if (done % 10_000 === 0 || done === pages) {
      log(`  ${done} / ${pages} pages (${s(performance.now() - started)})`);
    }
  }
  // Recorded as the indexer records it, so that no re-index of the space rebuilds it.
  await engine.index.saveState(spaceId, { analyzer: engine.analyzer, language: 'en' });
}

/** Deletes a page's rows and writes its new version, in one transaction: timed. */
async function onePageUpdate(engine, spaceId, pages, i) {
  const n = Math.floor(mulberry32(0x0dd + i)() * pages);
  const page = pageSections(n);
  page.sections[0].body = `${page.sections[0].body} Edited ${i + 1} times.`;
  const started = performance.now();
  await engine.dataSource.transaction(async (manager) => {
    await engine.index.deletePages(spaceId, [page.id], manager);
    await engine.index.insertPages(
      spaceId,
      new Date(),
      'english',
      columnsOf(engine, [page]),
      manager,
    );
  });
  return performance.now() - started;
}

async function tableSizes(engine) {
  const rows = await engine.dataSource.query(
    `SELECT c.relname AS table, c.reltuples::bigint AS rows,
            pg_size_pretty(pg_total_relation_size(c.oid)) AS total
       FROM pg_class c
      WHERE c.relname IN ('page_sections', 'page_search', 'search_lexicon')
      ORDER BY c.relname`,
  );
  return rows.map((row) => ({ ...row, rows: Number(row.rows) }));
}

/** Searches one at a time (latency without queueing), queries of every kind in turn. */
async function measureSearch(baseUrl, headers, spaceId) {
  const all = Object.entries(QUERIES).flatMap(([kind, queries]) =>
    queries.map((query) => ({ kind, query })),
  );
  const rng = mulberry32(0x5ea7c4);
  const pick = () => all[Math.floor(rng() * all.length)];
  const run = async ({ query }) => {
    const url = `${baseUrl}/v1/spaces/${spaceId}/search?query=${encodeURIComponent(query)}`;
    const started = performance.now();
    const response = await fetch(url, { headers });
    const body = await response.text();
    const elapsed = performance.now() - started;
    if (response.status !== 200) {
      throw new Error(`search ${JSON.stringify(query)}: HTTP ${response.status}: ${body}`);
    }
    return { ms: elapsed, count: JSON.parse(body).count };
  };
  for (let i = 0; i < SEARCH_WARMUP_REQUESTS; i++) await run(pick());
  const timings = [];
  const byQuery = new Map();
  for (let i = 0; i < SEARCH_REQUESTS; i++) {
    checkInterrupted('searching');
    const entry = pick();
    const { ms: elapsed, count } = await run(entry);
    timings.push(elapsed);
    const seen = byQuery.get(entry.query) ?? { ...entry, pages: count, timings: [] };
    seen.timings.push(elapsed);
    byQuery.set(entry.query, seen);
  }
  const kinds = Object.keys(QUERIES).map((kind) => {
    const of = [...byQuery.values()].filter((q) => q.kind === kind).flatMap((q) => q.timings);
    return { kind, runs: of.length, p50Ms: percentile(of, 50), p95Ms: percentile(of, 95) };
  });
  const queries = [...byQuery.values()]
    .map((q) => ({ kind: q.kind, query: q.query, pages: q.pages, medianMs: median(q.timings) }))
    .sort((a, b) => b.medianMs - a.medianMs);
  return {
    requests: timings.length,
    p50Ms: percentile(timings, 50),
    p95Ms: percentile(timings, 95),
    p99Ms: percentile(timings, 99),
    maxMs: Math.max(...timings),
    kinds,
    queries,
  };
}

function printReport(report) {
  const { search } = report;
  const verdict = search.p95Ms <= TARGETS.searchP95Ms ? 'PASS' : 'MISS';
  log('');
  log(`Search over ${report.sections} sections (${report.pages} pages), ${report.database}`);
  log(
    `  index written in ${s(report.buildMs)}; one-page update median ${ms(report.updateMedianMs)}`,
  );
  log(
    `  search p50 ${ms(search.p50Ms)}, p95 ${ms(search.p95Ms)}, p99 ${ms(search.p99Ms)} ` +
      `(target p95 ≤ ${TARGETS.searchP95Ms} ms: ${verdict})`,
  );
  for (const kind of search.kinds) {
    log(
      `  ${kind.kind.padEnd(9)} p50 ${ms(kind.p50Ms)}, p95 ${ms(kind.p95Ms)} (${kind.runs} runs)`,
    );
  }
  for (const q of search.queries) {
    log(`  ${q.kind.padEnd(9)} ${JSON.stringify(q.query)}: ${ms(q.medianMs)}, ${q.pages} pages`);
  }
  log(
    `  load average at start ${report.load.atStart.map((l) => l.toFixed(1)).join(' ')}, at end ${report.load.atEnd.map((l) => l.toFixed(1)).join(' ')}`,
  );
}

runMain(main);
