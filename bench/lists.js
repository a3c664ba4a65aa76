'use strict';
/* global fetch */
/**
 * Lists at depth: with BENCH_LIST_ROWS (1,000,000) rows in one list, page 10,000 (of 100 rows:
 * the last) should cost no more than 1.2× page 1. Keyset pagination makes a page start after
 * the last row of the one before with an index range scan; an OFFSET would read and throw away
 * every row before it. See bench/README.md.
 *
 * The list is an organization's audit log (`listOrganizationAuditEvents`), the list that grows
 * largest in use. Rows are written in bulk with SQL; pages are asked for over HTTP, one request
 * at a time (latency without queueing), page 1 and the deep pages alternating.
 *
 * Env: DATABASE_URL (a PostgreSQL server; unset = embedded PGlite, 100,000 rows by default),
 * BENCH_LIST_ROWS, BENCH_LIST_REQUESTS (per page depth, default 100).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { Client } = require('pg');
const {
  RESULTS_DIR,
  positiveNumber,
  log,
  runMain,
  createPostgresDatabase,
  startEmbeddedDatabase,
  startBindery,
  createOrganization,
  api,
  timed,
  ms,
} = require('./lib');

const PAGE_SIZE = 100;
const REQUESTS = Math.ceil(positiveNumber('BENCH_LIST_REQUESTS', 100));
const TARGET_RATIO = 1.2;
const INSERT_BATCH = 100_000;

async function main() {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const database = process.env.DATABASE_URL
    ? await createPostgresDatabase(process.env.DATABASE_URL)
    : await startEmbeddedDatabase('embedded PGlite (in memory, in this bench process)');
  const rows = Math.ceil(
    positiveNumber('BENCH_LIST_ROWS', database.kind === 'postgresql' ? 1_000_000 : 100_000),
  );
  const deepest = Math.ceil(rows / PAGE_SIZE);
  const depths = [...new Set([1, 10, 100, 1_000, 10_000, deepest])]
    .filter((page) => page <= deepest)
    .sort((a, b) => a - b);
  log(`Database: ${database.description}`);

  const bindery = await startBindery(database, 'lists', stamp, {
    RATE_LIMIT_PER_MINUTE: '100000000',
  });
  const { token, userId, org } = await createOrganization(
    bindery.baseUrl,
    bindery.adminToken,
    'lists',
  );
  log(`Bindery ready on ${bindery.baseUrl}; organization ${org.id}`);

  // 1. The rows: one event a millisecond, in batches.
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    const { ms: insertMs } = await timed(async () => {
      for (let from = 1; from <= rows; from += INSERT_BATCH) {
        const to = Math.min(rows, from + INSERT_BATCH - 1);
        await client.query(
          `INSERT INTO audit_events (id, organization_id, occurred_at, action, operation_id,
             actor_type, actor_id, actor_label, target_type, target_id, target_label, method)
           SELECT gen_random_uuid(), $1, timestamptz '2026-01-01' + i * interval '1 millisecond',
                  'space.update', 'updateSpaceById', 'user', $2, 'Bench', 'space',
                  'space-' || (i % 1000), 'Space ' || (i % 1000), 'PATCH'
             FROM generate_series($3::int, $4::int) AS i`,
          [org.id, userId, from, to],
        );
      }
      // As autovacuum would soon after such a load: statistics, and the visibility map that lets
      // the count read the index alone.
      await client.query('VACUUM ANALYZE audit_events');
    });
    log(`Inserted ${rows.toLocaleString('en')} audit events in ${ms(insertMs)}`);

    // 2. A cursor for each depth. The cursor's format is Bindery's (base64url JSON of the
    // order's fingerprint and the last row's key): the fingerprint comes from a real cursor,
    // and a constructed cursor for page 2 must give what the real one gives.
    const listPath = `/v1/orgs/${org.id}/audit-events`;
    const first = await api(
      bindery.baseUrl,
      'GET',
      `${listPath}?limit=${PAGE_SIZE}`,
      token,
      undefined,
      200,
    );
    log(`The list counts ${first.count.toLocaleString('en')} events (the setup's own included)`);
    const [fingerprint] = JSON.parse(Buffer.from(first.next.page, 'base64url').toString('utf8'));
    const cursorFor = async (page) => {
      if (page === 1) return null;
      const {
        rows: [last],
      } = await client.query(
        `SELECT occurred_at, id FROM audit_events WHERE organization_id = $1
          ORDER BY occurred_at DESC, id DESC OFFSET $2 LIMIT 1`,
        [org.id, (page - 1) * PAGE_SIZE - 1],
      );
      return Buffer.from(
        JSON.stringify([fingerprint, [last.occurred_at.toISOString(), last.id]]),
      ).toString('base64url');
    };
    const cursors = new Map();
    for (const page of depths) cursors.set(page, await cursorFor(page));
    const real = await api(
      bindery.baseUrl,
      'GET',
      pageUrl(listPath, first.next.page),
      token,
      undefined,
      200,
    );
    const made = await api(
      bindery.baseUrl,
      'GET',
      pageUrl(listPath, await cursorFor(2)),
      token,
      undefined,
      200,
    );
    if (real.items[0].id !== made.items[0].id) {
      throw new Error(
        'A constructed cursor does not give the page a real one gives: the cursor format changed',
      );
    }
    const last = await api(
      bindery.baseUrl,
      'GET',
      pageUrl(listPath, cursors.get(deepest)),
      token,
      undefined,
      200,
    );
    log(
      `Page ${deepest.toLocaleString('en')} (the last) holds ${last.items.length} events, next: ${last.next ? 'yes' : 'none'}`,
    );

    // 3. Latency of each depth, one request at a time, depths alternating.
    const headers = { authorization: `Bearer ${token}` };
    const samples = new Map(depths.map((page) => [page, []]));
    const get = async (page) => {
      const started = performance.now();
      const response = await fetch(bindery.baseUrl + pageUrl(listPath, cursors.get(page)), {
        headers,
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`page ${page}: HTTP ${response.status}`);
      return performance.now() - started;
    };
    for (let i = 0; i < 10; i++) for (const page of depths) await get(page); // warm-up
    for (let i = 0; i < REQUESTS; i++) {
      for (const page of i % 2 ? [...depths].reverse() : depths)
        samples.get(page).push(await get(page));
    }

    // 4. Where a page's time goes: its two statements, timed alone (median of 9).
    const median9 = async (sql, params) => {
      const times = [];
      for (let i = 0; i < 9; i++) times.push((await timed(() => client.query(sql, params))).ms);
      return times.sort((a, b) => a - b)[4];
    };
    const [, [lastAt, lastId]] = JSON.parse(
      Buffer.from(cursors.get(Math.min(10_000, deepest)), 'base64url').toString('utf8'),
    );
    const statements = {
      rowsPage1Ms: await median9(
        `SELECT * FROM audit_events WHERE organization_id = $1
          ORDER BY occurred_at DESC, id DESC LIMIT ${PAGE_SIZE + 1}`,
        [org.id],
      ),
      rowsDeepMs: await median9(
        `SELECT * FROM audit_events WHERE organization_id = $1 AND (occurred_at, id) < ($2, $3)
          ORDER BY occurred_at DESC, id DESC LIMIT ${PAGE_SIZE + 1}`,
        [org.id, lastAt, lastId],
      ),
      countMs: await median9('SELECT count(*) FROM audit_events WHERE organization_id = $1', [
        org.id,
      ]),
    };

    // 5. Report.
    const results = depths.map((page) => ({ page, ...stats(samples.get(page)) }));
    const base = results[0];
    const target = results.find((r) => r.page === Math.min(10_000, deepest));
    const ratio = target.p50Ms / base.p50Ms;
    log(
      `\n${rows.toLocaleString('en')} rows, ${PAGE_SIZE} a page, ${REQUESTS} requests per depth one at a time (load average ${os.loadavg()[0].toFixed(1)})\n`,
    );
    log('page        p50 ms  p95 ms  p99 ms  ×page 1 (p50)');
    for (const r of results) {
      log(
        `${r.page.toLocaleString('en').padEnd(10)}  ${r.p50Ms.toFixed(1).padStart(6)}  ${r.p95Ms.toFixed(1).padStart(6)}  ${r.p99Ms.toFixed(1).padStart(6)}  ${(r.p50Ms / base.p50Ms).toFixed(2).padStart(13)}`,
      );
    }
    const met = ratio <= TARGET_RATIO;
    log(
      `\nPage ${target.page.toLocaleString('en')} / page 1 (p50): ${ratio.toFixed(2)} (target ≤ ${TARGET_RATIO}: ${met ? 'PASS' : 'MISS'})`,
    );
    log(
      `Alone: the page's rows ${ms(statements.rowsPage1Ms)} (page 1), ${ms(statements.rowsDeepMs)} ` +
        `(page ${target.page.toLocaleString('en')}); the list's count ${ms(statements.countMs)}, the same on every page`,
    );
    const report = {
      statements,
      date: new Date().toISOString(),
      database: { kind: database.kind, description: database.description },
      rows,
      pageSize: PAGE_SIZE,
      requestsPerDepth: REQUESTS,
      insertMs,
      results,
      ratio,
      targetRatio: TARGET_RATIO,
      met,
      log: bindery.logFile,
    };
    const file = path.join(RESULTS_DIR, `${stamp}-lists.json`);
    fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    log(`Results: ${file}`);
  } finally {
    await client.end();
  }
}

function pageUrl(listPath, cursor) {
  return `${listPath}?limit=${PAGE_SIZE}${cursor ? `&page=${encodeURIComponent(cursor)}` : ''}`;
}

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50Ms: at(0.5), p95Ms: at(0.95), p99Ms: at(0.99) };
}

runMain(main);
