'use strict';
/* global fetch */
/**
 * `node bench/conversations.js` after `npm run build`: the conversations area (issue #11) at
 * scale. N support conversations about K distinct problems (plus some of thanks only) are
 * generated deterministically and ingested over HTTP in batches; the background analysis
 * (issue extraction and clustering, jobs in the Bindery process) is timed until every
 * conversation is processed, and its clusters are checked against the known problems (purity);
 * then the three lists are read with autocannon, and their statements EXPLAINed. See
 * bench/README.md, "Conversations benchmark".
 *
 * Env: DATABASE_URL (PostgreSQL server for a throwaway database; unset = embedded PGlite in
 * this process), BENCH_CONVERSATIONS (default 2000), BENCH_PROBLEMS (distinct problems, default
 * 40, at most 40), BENCH_DURATION (seconds per read run, default 10), BENCH_WARMUP (seconds
 * before each read run, default 3), BENCH_CONVERSATIONS_CONNECTIONS (autocannon connections,
 * default 8), BENCH_SEQUENTIAL_REQUESTS (requests one at a time per list, default 100),
 * BENCH_ANALYSIS_TIMEOUT (seconds to wait for the analysis, default 600).
 *
 * `node bench/conversations.js --clustering` measures the clustering alone at 1,000 to 20,000
 * issues (time, peak memory, ARI; the sparse path against the similarity matrix): see
 * clusteringScale below.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const autocannon = require('autocannon');
const { Client } = require('pg');
const {
  ROOT,
  RESULTS_DIR,
  positiveNumber,
  log,
  sleep,
  cleanups,
  runMain,
  checkInterrupted,
  createPostgresDatabase,
  startEmbeddedDatabase,
  startBindery,
  createOrganization,
  cpuSeconds,
  expectOk,
  summarize,
} = require('./lib');

const DIST = path.join(ROOT, 'dist', 'src');
const CONVERSATIONS = Math.ceil(positiveNumber('BENCH_CONVERSATIONS', 2000));
const PROBLEM_COUNT = Math.ceil(positiveNumber('BENCH_PROBLEMS', 40));
const DURATION = positiveNumber('BENCH_DURATION', 10);
const WARMUP = positiveNumber('BENCH_WARMUP', 3);
const CONNECTIONS = Math.ceil(positiveNumber('BENCH_CONVERSATIONS_CONNECTIONS', 8));
const SEQUENTIAL_REQUESTS = Math.ceil(positiveNumber('BENCH_SEQUENTIAL_REQUESTS', 100));
const ANALYSIS_TIMEOUT_S = positiveNumber('BENCH_ANALYSIS_TIMEOUT', 600);
/** Conversations per ingestion request (the API takes at most 500). */
const BATCH = 100;
/** Share of conversations that only say thanks (no problem, so no issue). */
const THANKS_SHARE = 0.05;
/** Conversations' `metadata.createdAt` spread over this many days before now (the weekly pulse spans 13 weeks). */
const SPREAD_DAYS = 84;
const POLL_MS = 200;
const SETTLE_MS = 1000;
const TARGETS = { listP95Ms: 50, analysisMs: 60_000, analysisAtConversations: 2000 };
const DEFAULT_CONVERSATIONS = 2000;

async function main() {
  if (PROBLEM_COUNT > PROBLEMS.length) {
    throw new Error(`BENCH_PROBLEMS must be at most ${PROBLEMS.length} (got ${PROBLEM_COUNT})`);
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const loadAtStart = os.loadavg();

  // 1. Database.
  const database = process.env.DATABASE_URL
    ? await createPostgresDatabase(process.env.DATABASE_URL)
    : await startEmbeddedDatabase(
        'embedded PGlite (in memory, served from this bench process): every query is ' +
          'serialized through one WASM engine that shares the process with the generator and ' +
          'autocannon; set DATABASE_URL for a real PostgreSQL run',
      );
  log(`Database: ${database.description}`);

  // 2. Bindery, with its jobs (the analysis) in process.
  const {
    env,
    baseUrl,
    adminToken,
    child: bindery,
    logFile: binderyLog,
  } = await startBindery(database, 'conversations', stamp, { JOBS_IN_PROCESS: 'true' });
  log(`Bindery ready on ${baseUrl} (log: ${binderyLog})`);

  // The bench's own connection, to watch the analysis and EXPLAIN the lists.
  const db = new Client({ connectionString: database.url });
  await db.connect();
  cleanups.push(() => db.end());

  // 3. A user and an organization (its creator is its admin) through the API.
  const { token, userId, org } = await createOrganization(
    baseUrl,
    adminToken,
    'conversations',
    'Conversations Bench',
  );
  log(`Created user ${userId}, organization ${org.id}`);

  // 4. Generate, then ingest in batches of BATCH, one request at a time.
  const conversations = generateConversations(CONVERSATIONS, PROBLEM_COUNT);
  const thanks = conversations.filter((c) => c.problem === null).length;
  log(
    `Generated ${conversations.length} conversations about ${PROBLEM_COUNT} problems ` +
      `(${thanks} of thanks only), ${(conversations.reduce((n, c) => n + c.bytes, 0) / 1024 / 1024).toFixed(1)} MB of JSON`,
  );
  const ingestPath = `/v1/orgs/${org.id}/conversations`;
  const batchTimes = [];
  const ingestStarted = performance.now();
  for (let i = 0; i < conversations.length; i += BATCH) {
    checkInterrupted('ingesting');
    const body = conversations.slice(i, i + BATCH).map((c) => c.input);
    const started = performance.now();
    const response = await fetch(`${baseUrl}${ingestPath}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    batchTimes.push(performance.now() - started);
    if (response.status !== 204) {
      throw new Error(
        `POST ${ingestPath}: expected 204, got ${response.status}: ${text.slice(0, 500)}`,
      );
    }
  }
  const ingestMs = performance.now() - ingestStarted;
  const ingest = {
    conversations: conversations.length,
    batchSize: BATCH,
    batches: batchTimes.length,
    ms: ingestMs,
    conversationsPerSec: (conversations.length * 1000) / ingestMs,
    batchP50Ms: percentile(batchTimes, 50),
    batchP95Ms: percentile(batchTimes, 95),
    batchMaxMs: Math.max(...batchTimes),
  };
  log(
    `Ingested ${ingest.conversations} conversations in ${ingest.batches} batches of ${BATCH} in ${s(ingestMs)}: ` +
      `${ingest.conversationsPerSec.toFixed(0)} conversations/s, batch p50 ${ms(ingest.batchP50Ms)}, p95 ${ms(ingest.batchP95Ms)}`,
  );

  // 5. The analysis: from the first ingestion until every conversation has processedAt.
  const stored = await count(db, 'SELECT count(*) FROM conversations WHERE organization_id = $1', [
    org.id,
  ]);
  if (stored !== conversations.length) {
    throw new Error(`${stored} conversations stored, ${conversations.length} ingested`);
  }
  const deadline = performance.now() + ANALYSIS_TIMEOUT_S * 1000;
  let pending = Infinity;
  let lastReport = 0;
  for (;;) {
    checkInterrupted('waiting for the analysis');
    pending = await count(
      db,
      'SELECT count(*) FROM conversations WHERE organization_id = $1 AND processed_at IS NULL',
      [org.id],
    );
    if (pending === 0) break;
    if (performance.now() > deadline) {
      throw new Error(
        `${pending} conversations still unprocessed ${ANALYSIS_TIMEOUT_S} s after the first ingestion (see ${binderyLog})`,
      );
    }
    if (performance.now() - lastReport > 5000) {
      lastReport = performance.now();
      log(
        `  analysis: ${pending} conversations unprocessed after ${s(performance.now() - ingestStarted)}`,
      );
    }
    await sleep(POLL_MS);
  }
  const analysisDone = performance.now();
  // What the API says, too: the first page of conversations all have processedAt.
  const firstPage = JSON.parse(
    await expectOk('conversations', `${baseUrl}${ingestPath}?limit=100`, {
      authorization: `Bearer ${token}`,
    }),
  );
  if (firstPage.items.some((c) => !c.processedAt)) {
    throw new Error('the API lists conversations without processedAt once all are processed');
  }
  const quality = await clusteringQuality(db, org.id, conversations);
  const analysis = {
    msFromFirstIngest: analysisDone - ingestStarted,
    msAfterLastIngest: analysisDone - ingestStarted - ingestMs,
    ...quality,
  };
  log(
    `Analysis done ${s(analysis.msFromFirstIngest)} after the first ingestion ` +
      `(${s(analysis.msAfterLastIngest)} after the last): ${quality.issues} issues, ` +
      `${quality.clusters} clusters for ${PROBLEM_COUNT} problems, purity ${pct(quality.purity)}, ` +
      `${quality.unclustered} issues unclustered`,
  );

  // 6. Reads, with statistics gathered as autovacuum would after such a load.
  await db.query('ANALYZE conversations, conversation_issues, conversation_issue_clusters');
  const headers = { authorization: `Bearer ${token}` };
  const reads = [];
  const loadBeforeReads = os.loadavg()[0];
  log(
    `\nReads: ${CONNECTIONS} connections, warm-up ${WARMUP} s then ${DURATION} s ` +
      `(1-minute load average ${loadBeforeReads.toFixed(1)} on ${os.cpus().length} CPUs)`,
  );
  for (const [target, pathname] of [
    [
      'GET /v1/orgs/:id/conversations-clusters?limit=50',
      `/v1/orgs/${org.id}/conversations-clusters?limit=50`,
    ],
    [
      'GET /v1/orgs/:id/conversations-issues?limit=100',
      `/v1/orgs/${org.id}/conversations-issues?limit=100`,
    ],
    ['GET /v1/orgs/:id/conversations?limit=100', `/v1/orgs/${org.id}/conversations?limit=100`],
  ]) {
    checkInterrupted('reading');
    const body = JSON.parse(await expectOk(target, `${baseUrl}${pathname}`, headers));
    await readLoad(baseUrl, headers, pathname, WARMUP);
    await sleep(SETTLE_MS);
    const cpuBefore = cpuSeconds(bindery.pid);
    const { result, latencies } = await readLoad(baseUrl, headers, pathname, DURATION);
    const cpuAfter = cpuSeconds(bindery.pid);
    const run = summarize(target, result, { durationS: DURATION, connections: CONNECTIONS });
    // autocannon reports no p95: computed from every 2xx response's time.
    run.p50Ms = percentile(latencies, 50);
    run.p95Ms = percentile(latencies, 95);
    run.p99Ms = percentile(latencies, 99);
    run.items = body.items.length;
    run.count = body.count;
    run.responseBytes = Buffer.byteLength(JSON.stringify(body));
    // The same list one request at a time: its latency without queueing.
    await sleep(SETTLE_MS);
    const sequential = [];
    for (let n = 0; n < SEQUENTIAL_REQUESTS; n++) {
      const started = performance.now();
      await expectOk(target, `${baseUrl}${pathname}`, headers);
      sequential.push(performance.now() - started);
    }
    run.oneAtATime = {
      requests: sequential.length,
      p50Ms: percentile(sequential, 50),
      p95Ms: percentile(sequential, 95),
      p99Ms: percentile(sequential, 99),
    };
    run.serverCpuMsPerRequest =
      cpuBefore === null || cpuAfter === null || run.requests === 0
        ? null
        : ((cpuAfter - cpuBefore) * 1000) / run.requests;
    reads.push(run);
    log(
      `  ${target}: ${run.reqPerSec.toFixed(0)} req/s, p50 ${ms(run.p50Ms)}, p95 ${ms(run.p95Ms)}, ` +
        `p99 ${ms(run.p99Ms)} (${run.items} items of ${run.count}, ${(run.responseBytes / 1024).toFixed(0)} KB), ` +
        `non-2xx ${run.non2xx}, errors ${run.errors + run.timeouts}; one at a time p50 ` +
        `${ms(run.oneAtATime.p50Ms)}, p95 ${ms(run.oneAtATime.p95Ms)}`,
    );
  }

  // 7. The lists' statements, as the services run them, EXPLAINed on this database.
  checkInterrupted('explaining');
  const plans = await explainLists(env, db, org.id);
  log(`Explained ${plans.length} statements of the three lists`);

  // 8. Report.
  const fullSize = CONVERSATIONS >= TARGETS.analysisAtConversations;
  const analysisTargetMs = (TARGETS.analysisMs * CONVERSATIONS) / TARGETS.analysisAtConversations;
  const report = {
    date: new Date().toISOString(),
    database: { kind: database.kind, name: database.name, description: database.description },
    node: process.version,
    cpus: os.cpus().length,
    loadAverage: { atStart: loadAtStart, beforeReads: loadBeforeReads, atEnd: os.loadavg() },
    settings: {
      conversations: CONVERSATIONS,
      problems: PROBLEM_COUNT,
      thanksShare: THANKS_SHARE,
      batchSize: BATCH,
      readDurationS: DURATION,
      readWarmupS: WARMUP,
      readConnections: CONNECTIONS,
      sequentialRequests: SEQUENTIAL_REQUESTS,
    },
    targets: TARGETS,
    organization: org.id,
    ingest,
    analysis: { ...analysis, perProblem: undefined },
    perProblem: analysis.perProblem,
    reads,
    plans,
    met: {
      // Under CONNECTIONS concurrent requests (queueing included), and one at a time.
      listP95: reads.every((r) => r.p95Ms <= TARGETS.listP95Ms),
      listP95OneAtATime: reads.every((r) => r.oneAtATime.p95Ms <= TARGETS.listP95Ms),
      // Scaled to the run's size when smaller than the target's (a trial run).
      analysis: analysis.msFromFirstIngest <= analysisTargetMs,
      atTargetSize: fullSize && CONVERSATIONS === DEFAULT_CONVERSATIONS,
    },
    logs: { bindery: binderyLog },
  };
  printReport(report, analysisTargetMs);
  const resultsFile = path.join(RESULTS_DIR, `${stamp}-conversations.json`);
  fs.writeFileSync(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
  log(`\nResults: ${resultsFile}`);
}

// ---------------------------------------------------------------- analysis quality

/**
 * Issues and clusters against the problems the conversations were generated about (known from
 * their external id): a cluster's problem is the majority problem of its issues; purity is the
 * share of clustered issues whose problem is their cluster's.
 */
async function clusteringQuality(db, organizationId, conversations) {
  const problemOf = new Map(conversations.map((c) => [c.input.id, c.problem]));
  const { rows } = await db.query(
    `SELECT i.cluster_id, c.external_id
       FROM conversation_issues i JOIN conversations c ON c.id = i.conversation_id
      WHERE i.organization_id = $1`,
    [organizationId],
  );
  const clusterCount = await count(
    db,
    'SELECT count(*) FROM conversation_issue_clusters WHERE organization_id = $1',
    [organizationId],
  );
  const byCluster = new Map();
  let unclustered = 0;
  let thanksIssues = 0;
  const conversationsWithIssues = new Set();
  for (const row of rows) {
    const problem = problemOf.get(row.external_id);
    conversationsWithIssues.add(row.external_id);
    if (problem === null) thanksIssues++;
    if (row.cluster_id === null) {
      unclustered++;
      continue;
    }
    const tally = byCluster.get(row.cluster_id) ?? new Map();
    tally.set(problem, (tally.get(problem) ?? 0) + 1);
    byCluster.set(row.cluster_id, tally);
  }
  let clustered = 0;
  let pure = 0;
  const clustersOfProblem = new Map(); // problem → clusters where it is the majority
  for (const [clusterId, tally] of byCluster) {
    let majority = null;
    let best = -1;
    for (const [problem, n] of tally) {
      clustered += n;
      if (n > best) [majority, best] = [problem, n];
    }
    pure += best;
    const list = clustersOfProblem.get(majority) ?? [];
    list.push(clusterId);
    clustersOfProblem.set(majority, list);
  }
  const majorityOf = new Map(
    [...clustersOfProblem].flatMap(([problem, ids]) => ids.map((id) => [id, problem])),
  );
  const landedIn = new Map(); // problem → majority problems of the clusters holding its issues
  for (const [clusterId, tally] of byCluster) {
    for (const problem of tally.keys()) {
      const set = landedIn.get(problem) ?? new Set();
      set.add(majorityOf.get(clusterId));
      landedIn.set(problem, set);
    }
  }
  const perProblem = [];
  for (let p = 0; p < PROBLEM_COUNT; p++) {
    perProblem.push({
      inClustersOf: [...(landedIn.get(p) ?? [])].filter((q) => q !== p),
      problem: p,
      topic: PROBLEMS[p].verb + ' / ' + PROBLEMS[p].a,
      conversations: conversations.filter((c) => c.problem === p).length,
      clusters: (clustersOfProblem.get(p) ?? []).length,
    });
  }
  const problemConversations = conversations.filter((c) => c.problem !== null).length;
  return {
    issues: rows.length,
    clusters: clusterCount,
    clustered,
    unclustered,
    purity: clustered === 0 ? 0 : pure / clustered,
    problemsFound: perProblem.filter((p) => p.clusters > 0).length,
    problemsSplit: perProblem.filter((p) => p.clusters > 1).length,
    issuesFromThanks: thanksIssues,
    problemConversationsWithoutIssue: [...problemOf].filter(
      ([id, problem]) => problem !== null && !conversationsWithIssues.has(id),
    ).length,
    problemConversations,
    perProblem,
  };
}

// ---------------------------------------------------------------- reads

/** One autocannon run on `pathname`, with every 2xx response's latency (autocannon has no p95). */
async function readLoad(baseUrl, headers, pathname, duration) {
  const latencies = [];
  const instance = autocannon({
    url: `${baseUrl}${pathname}`,
    headers,
    connections: CONNECTIONS,
    duration,
  });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  });
  const result = await instance;
  return { result, latencies };
}

// ---------------------------------------------------------------- EXPLAIN

/**
 * Boots Bindery from dist in this process (not listening, no jobs) on the same database, runs
 * the three list services once while recording every statement TypeORM sends, then EXPLAINs
 * (ANALYZE, BUFFERS) each statement on the bench's own connection.
 */
async function explainLists(env, db, organizationId) {
  const { loadConfig } = require(path.join(DIST, 'platform', 'config', 'app-config'));
  const { createApp } = require(path.join(DIST, 'setup'));
  const { ConversationsService } = require(
    path.join(DIST, 'conversations', 'conversations.service'),
  );
  const { ConversationClustersService } = require(
    path.join(DIST, 'conversations', 'conversation-clusters.service'),
  );
  const { PostgresQueryRunner } = require('typeorm/driver/postgres/PostgresQueryRunner');
  const config = loadConfig(
    { ...process.env, ...env },
    { JOBS_IN_PROCESS: false, DATABASE_POOL_SIZE: 2 },
  );
  const bindery = await createApp(config);
  const recorded = [];
  let recording = false;
  const query = PostgresQueryRunner.prototype.query;
  PostgresQueryRunner.prototype.query = function recordedQuery(sql, parameters, ...rest) {
    if (recording) recorded.push({ sql, parameters: parameters ?? [] });
    return query.call(this, sql, parameters, ...rest);
  };
  const lists = [
    [
      'conversations-clusters?limit=50',
      () => bindery.app.get(ConversationClustersService).list(organizationId, { limit: 50 }),
    ],
    [
      'conversations-issues?limit=100',
      () => bindery.app.get(ConversationsService).listIssues(organizationId, { limit: 100 }),
    ],
    [
      'conversations?limit=100',
      () => bindery.app.get(ConversationsService).list(organizationId, { limit: 100 }),
    ],
  ];
  const plans = [];
  try {
    for (const [list, run] of lists) {
      recorded.length = 0;
      recording = true;
      try {
        await run();
      } finally {
        recording = false;
      }
      for (const { sql, parameters } of recorded.filter((r) => /^\s*SELECT/i.test(r.sql))) {
        const { rows } = await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, parameters);
        const lines = rows.map((row) => row['QUERY PLAN']);
        const plan = { list, role: roleOf(sql), sql, ...planSummary(lines), plan: lines };
        // One organization holds every row here, so its filter selects everything and a Seq
        // Scan is the planner's right choice: whether an index can serve the statement (and
        // its order, without sorting every row) shows with sequential scans turned off.
        if (plan.seqScans.length) {
          await db.query('BEGIN');
          try {
            await db.query('SET LOCAL enable_seqscan = off');
            const forced = await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, parameters);
            const forcedLines = forced.rows.map((row) => row['QUERY PLAN']);
            plan.withoutSeqScan = { ...planSummary(forcedLines), plan: forcedLines };
          } finally {
            await db.query('ROLLBACK');
          }
        }
        // The page statements read whole conversations, `parts` (every message) included,
        // though no list shows them: what that column costs, read through pg as the app does.
        const partsColumn = /,\s*"conversation"\."parts" AS "conversation_parts"/;
        if (plan.role === 'page' && partsColumn.test(sql)) {
          plan.timing = {
            runs: TIMING_RUNS,
            medianMs: await medianQueryMs(db, sql, parameters),
            withoutPartsMedianMs: await medianQueryMs(db, sql.replace(partsColumn, ''), parameters),
          };
        }
        plans.push(plan);
      }
    }
  } finally {
    PostgresQueryRunner.prototype.query = query;
    await bindery.close();
  }
  return plans;
}

const TIMING_RUNS = 30;

async function medianQueryMs(db, sql, parameters) {
  const times = [];
  for (let i = 0; i < TIMING_RUNS + 5; i++) {
    const started = performance.now();
    await db.query(sql, parameters);
    if (i >= 5) times.push(performance.now() - started);
  }
  return percentile(times, 50);
}

function roleOf(sql) {
  if (/COUNT\(/i.test(sql) && !/GROUP BY/i.test(sql)) return 'count';
  if (/GROUP BY/i.test(sql)) return 'weekly pulse';
  return 'page';
}

function planSummary(lines) {
  const scans = [];
  const seqScans = [];
  let sort = false;
  let executionMs = null;
  for (const line of lines) {
    let m;
    if (
      (m = /(Index Only Scan|Index Scan|Bitmap Index Scan)(?: Backward)? (?:using|on) (\S+)/.exec(
        line,
      ))
    ) {
      scans.push(`${m[1]} ${m[2]}`);
    } else if ((m = /Seq Scan on (\S+)/.exec(line))) {
      seqScans.push(m[1]);
      scans.push(`Seq Scan ${m[1]}`);
    }
    if (/^\s*(->\s*)?(Incremental )?Sort\b/.test(line)) sort = true;
    if ((m = /Execution Time: ([\d.]+) ms/.exec(line))) executionMs = Number(m[1]);
  }
  return {
    summary: `${[...new Set(scans)].join(', ') || 'no scan'}${sort ? ', Sort' : ''}`,
    seqScans: [...new Set(seqScans)],
    sort,
    executionMs,
  };
}

// ---------------------------------------------------------------- generation

/**
 * The problems: a verb phrase, three nouns that name the problem's subject, and a symptom.
 * Some share a domain (billing, sign-in, Git) so that telling them apart takes more than one
 * word.
 */
const PROBLEMS = [
  ['sign in', 'saml', 'okta', 'identity provider', 'redirects back to the login page'],
  ['provision users', 'scim', 'azure directory', 'user accounts', 'does not create the accounts'],
  ['download invoices', 'invoice', 'pdf receipt', 'billing page', 'comes out blank'],
  ['pay for the upgrade', 'credit card', 'checkout', 'payment form', 'is declined'],
  ['reset my password', 'password reset', 'reset email', 'inbox', 'never arrives'],
  [
    'enable two-factor authentication',
    'two-factor',
    'authenticator app',
    'verification code',
    'is rejected as invalid',
  ],
  ['receive webhook events', 'webhook', 'endpoint', 'payload', 'times out'],
  ['create an api token', 'api token', 'token scopes', 'personal token', 'expires immediately'],
  [
    'connect the repository',
    'github sync',
    'repository',
    'branch',
    'fails with a permission error',
  ],
  ['export the guide to pdf', 'pdf export', 'exported file', 'wide tables', 'cuts off the tables'],
  [
    'publish the site on our domain',
    'custom domain',
    'dns record',
    'certificate',
    'shows a certificate error',
  ],
  [
    'find recent pages with search',
    'search results',
    'search index',
    'query',
    'misses the pages we just published',
  ],
  ['invite teammates', 'invitation', 'invite link', 'seats', 'says the link has expired'],
  ['upload images', 'image upload', 'attachment', 'file size', 'stalls at ninety percent'],
  ['merge the change request', 'change request', 'merge button', 'reviewers', 'stays disabled'],
  [
    'translate the docs',
    'translation',
    'locale',
    'language switcher',
    'shows english text instead',
  ],
  [
    'import markdown files',
    'markdown import',
    'zip archive',
    'nested headings',
    'loses the nested headings',
  ],
  [
    'embed our openapi spec',
    'openapi',
    'swagger file',
    'operation blocks',
    'renders empty operation blocks',
  ],
  ['customize the theme', 'theme colors', 'logo', 'header', 'resets after saving'],
  [
    'restore an older version',
    'revision history',
    'old version',
    'rollback',
    'restores the wrong page',
  ],
  [
    'restrict guest access',
    'permissions',
    'guest access',
    'viewer role',
    'lets viewers edit pages',
  ],
  ['cancel the subscription', 'subscription', 'renewal', 'downgrade', 'charged us twice'],
  ['link between spaces', 'cross-space links', 'anchor', 'relative link', 'point to missing pages'],
  ['paste code samples', 'code block', 'syntax highlighting', 'snippet', 'loses the indentation'],
  [
    'mention colleagues in comments',
    'inline comments',
    'mentions',
    'comment notifications',
    'are not sent',
  ],
  [
    'track page views',
    'analytics dashboard',
    'page views',
    'visitor traffic',
    'shows zero visitors',
  ],
  [
    'delete our workspace',
    'workspace deletion',
    'organization account',
    'data removal',
    'option is missing',
  ],
  [
    'move pages between spaces',
    'drag and drop',
    'sidebar tree',
    'page move',
    'drops the page in the wrong place',
  ],
  ['mirror from gitlab', 'gitlab mirror', 'merge request', 'pipeline', 'is stuck on pending'],
  ['export the audit log', 'audit log', 'retention', 'compliance export', 'is missing entries'],
  [
    'call the api from our integration',
    'rate limit',
    'api requests',
    'quota',
    'blocks our integration',
  ],
  [
    'share a private page',
    'share link',
    'visitor token',
    'private content',
    'asks visitors to log in',
  ],
  ['write math formulas', 'math formulas', 'latex', 'katex', 'show the raw source'],
  ['reorder chapters', 'table of contents', 'navigation', 'chapter order', 'keeps reverting'],
  ['draw diagrams', 'mermaid diagrams', 'diagram', 'chart syntax', 'fail to render on mobile'],
  ['edit long pages', 'editor', 'typing lag', 'large page', 'freezes for seconds'],
  ['redirect old urls', 'redirects', 'old urls', 'seo ranking', 'return not found errors'],
  ['tag pages', 'page tags', 'labels', 'tag filter', 'duplicate after renaming'],
  [
    'transfer ownership',
    'ownership transfer',
    'owner role',
    'billing admin',
    'button is greyed out',
  ],
  ['schedule backups', 'nightly backups', 'snapshot', 'backup storage', 'fail silently'],
].map(([verb, a, b, c, symptom]) => ({ verb, a, b, c, symptom }));

const PLACES = [
  'on our production workspace',
  'for some of our users',
  'in the main space',
  'from the admin panel',
  'on Chrome and Safari',
  '',
  '',
];
const TIMES = [
  'since yesterday',
  'after the last update',
  'since this morning',
  'for a week now',
  '',
  '',
];
const CONTEXT = [
  'We are on the Business plan.',
  'Our company has around forty editors.',
  'We moved our handbook over last month.',
  'I am the admin of our docs.',
  'Our customers read these docs every day.',
  'We rely on this for onboarding.',
];
const REPLIES = [
  'Thanks for reaching out, we are looking into it.',
  'Could you share a screenshot and the URL of the page?',
  'Sorry about that. Which browser do you use?',
  'Let me check with the engineering team and come back to you.',
];
const COURTESY = [
  'Thanks a lot, that worked!',
  'Thank you so much, all good now.',
  'Great, it works now!',
  'Perfect, thanks!',
  'Got it, thanks.',
  'Awesome, have a great day!',
];
const OPENINGS = [
  (p, r) => `I can't ${p.verb} with ${p.a} ${pick(r, PLACES)}.`,
  (p, r) => `When we try to ${p.verb}, the ${p.b} still ${p.symptom} ${pick(r, TIMES)}.`,
  (p, r) => `How do I ${p.verb} with ${p.b} ${pick(r, PLACES)}?`,
  (p) => `Is there a way to ${p.verb} when ${p.a} is on? The ${p.c} ${p.symptom}.`,
  (p, r) => `Something is wrong with ${p.a}: the ${p.c} ${p.symptom} ${pick(r, TIMES)}.`,
  (p) => `We get an error every time we ${p.verb} through the ${p.b}.`,
  (p) => `${capitalize(p.a)} is broken for us, the ${p.b} ${p.symptom}.`,
  (p, r) => `Our team is unable to ${p.verb} ${pick(r, PLACES)}, the ${p.c} ${p.symptom}.`,
];
const CONTINUATIONS = [
  (p, r) => `It still ${p.symptom} ${pick(r, TIMES)}.`,
  (p) => `We checked the ${p.c} settings but nothing changed.`,
  (p) => `The ${p.b} looks fine, so we don't understand why the ${p.a} fails.`,
];
const FOLLOW_UPS = [
  (p) => `Still no luck, the ${p.b} ${p.symptom}.`,
  (p) => `We tried again and the ${p.a} error is still there.`,
  (p) => `Chrome, and the ${p.c} ${p.symptom} there too.`,
];
const SUBJECTS = [
  (p) => `${capitalize(p.a)} not working`,
  (p) => `Question about ${p.b}`,
  (p) => `Problem with ${p.c}`,
  (p) => `Cannot ${p.verb}`,
];

/**
 * `n` conversations: a share of thanks only, the rest about `problems` problems with a mild Zipf
 * skew (the commonest about three times the rarest at 40). Deterministic (seeded); the external
 * id says the problem (`p07-00042`, `t-00013` for thanks).
 */
function generateConversations(n, problems) {
  const rng = mulberry32(0xc0417);
  const weights = [];
  let sum = 0;
  for (let p = 0; p < problems; p++) weights.push((sum += 1 / Math.sqrt(p + 1)));
  const now = Date.now();
  const out = [];
  for (let i = 0; i < n; i++) {
    const createdAt = new Date(now - 3_600_000 - Math.floor(rng() * SPREAD_DAYS * 86_400_000));
    let problem = null;
    let parts;
    let subject;
    if (rng() >= THANKS_SHARE) {
      const x = rng() * sum;
      problem = weights.findIndex((w) => w >= x);
      const p = PROBLEMS[problem];
      const opening = [];
      if (rng() < 0.4) opening.push(pick(rng, CONTEXT));
      opening.push(pick(rng, OPENINGS)(p, rng));
      if (rng() < 0.5) opening.push(pick(rng, CONTINUATIONS)(p, rng));
      parts = [
        {
          type: 'message',
          role: 'user',
          body: `${rng() < 0.5 ? 'Hi team, ' : ''}${tidy(opening.join(' '))}`,
        },
        {
          type: 'message',
          role: rng() < 0.5 ? 'assistant' : 'team-member',
          body: pick(rng, REPLIES),
        },
      ];
      if (rng() < 0.3) {
        parts.push({ type: 'message', role: 'user', body: tidy(pick(rng, FOLLOW_UPS)(p, rng)) });
        parts.push({ type: 'message', role: 'team-member', body: pick(rng, REPLIES) });
      }
      if (rng() < 0.4) parts.push({ type: 'message', role: 'user', body: pick(rng, COURTESY) });
      if (rng() < 0.6) subject = pick(rng, SUBJECTS)(p);
    } else {
      parts = [
        { type: 'message', role: 'user', body: pick(rng, COURTESY) },
        { type: 'message', role: 'team-member', body: 'You are welcome!' },
      ];
      if (rng() < 0.5) subject = 'Thanks!';
    }
    const id = problem === null ? `t-${pad(i, 5)}` : `p${pad(problem, 2)}-${pad(i, 5)}`;
    const input = {
      id,
      ...(subject ? { subject } : {}),
      parts,
      metadata: {
        url: `https://support.example.com/tickets/${id}`,
        createdAt: createdAt.toISOString(),
        attributes: { channel: pick(rng, ['chat', 'email', 'widget']) },
      },
    };
    out.push({ problem, input, bytes: Buffer.byteLength(JSON.stringify(input)) });
  }
  return out;
}

const tidy = (text) =>
  text
    .replace(/\s+([.,?!:])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
const pick = (rng, list) => list[Math.floor(rng() * list.length)];
const pad = (value, width) => String(value).padStart(width, '0');
const capitalize = (text) => text.charAt(0).toUpperCase() + text.slice(1);

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------- report

function printReport(report, analysisTargetMs) {
  const pass = (met) => (met ? 'PASS' : 'FAIL');
  const a = report.analysis;
  const i = report.ingest;
  log(`\nDatabase: ${report.database.description}`);
  log(
    `${report.cpus} CPUs shared by Bindery, the database, this process and autocannon; 1-minute load average ` +
      `${report.loadAverage.atStart[0].toFixed(1)} at start, ${report.loadAverage.beforeReads.toFixed(1)} before the reads, ` +
      `${report.loadAverage.atEnd[0].toFixed(1)} at the end`,
  );
  log(
    `${report.settings.conversations} conversations about ${report.settings.problems} problems; reads with ` +
      `${report.settings.readConnections} connections, ${report.settings.readDurationS} s each\n`,
  );
  const analysisTarget =
    analysisTargetMs === TARGETS.analysisMs
      ? `≤ ${s(TARGETS.analysisMs)}`
      : `≤ ${s(analysisTargetMs)} (60 s scaled to ${report.settings.conversations})`;
  const rows = [
    ['measure', 'value', 'target'],
    [
      '1. ingest throughput',
      `${i.conversationsPerSec.toFixed(0)} conversations/s (${s(i.ms)})`,
      '',
    ],
    [
      `1. ingest batch of ${i.batchSize} p50 / p95`,
      `${ms(i.batchP50Ms)} / ${ms(i.batchP95Ms)}`,
      '',
    ],
    [
      '2. analysis, first ingest → all processed',
      `${s(a.msFromFirstIngest)} (${s(a.msAfterLastIngest)} after the last ingest)`,
      `${analysisTarget} ${pass(report.met.analysis)}`,
    ],
    [
      '2. issues (conversations without one)',
      `${a.issues} (${a.problemConversationsWithoutIssue} of ${a.problemConversations} with a problem; ${a.issuesFromThanks} from thanks)`,
      '',
    ],
    [
      '2. clusters found / problems',
      `${a.clusters} / ${report.settings.problems} (${a.problemsFound} problems have a cluster, ${a.problemsSplit} split over several)`,
      '',
    ],
    ['2. purity of clustered issues', `${pct(a.purity)} of ${a.clustered}`, ''],
    [
      '2. issues unclustered',
      `${a.unclustered} (${pct(a.issues ? a.unclustered / a.issues : 0)})`,
      '',
    ],
    ...report.reads.flatMap((r) => [
      [
        `3. ${r.target}`,
        `${r.reqPerSec.toFixed(0)} req/s, p50 ${ms(r.p50Ms)}, p95 ${ms(r.p95Ms)}, p99 ${ms(r.p99Ms)}` +
          (r.serverCpuMsPerRequest === null
            ? ''
            : `, ${r.serverCpuMsPerRequest.toFixed(1)} CPU ms/req`) +
          (r.non2xx || r.errors || r.timeouts
            ? ` (non-2xx ${r.non2xx}, errors ${r.errors + r.timeouts})`
            : ''),
        `p95 ≤ ${TARGETS.listP95Ms} ms under load ${pass(r.p95Ms <= TARGETS.listP95Ms)}`,
      ],
      [
        `   one at a time (${r.oneAtATime.requests} requests)`,
        `p50 ${ms(r.oneAtATime.p50Ms)}, p95 ${ms(r.oneAtATime.p95Ms)}, p99 ${ms(r.oneAtATime.p99Ms)}`,
        `p95 ≤ ${TARGETS.listP95Ms} ms alone ${pass(r.oneAtATime.p95Ms <= TARGETS.listP95Ms)}`,
      ],
    ]),
    [
      '4. list statements an index serves',
      `${report.plans.filter((p) => !p.seqScans.length || (p.withoutSeqScan && !p.withoutSeqScan.seqScans.length)).length} of ${report.plans.length}` +
        ` (${report.plans.filter((p) => p.seqScans.length).length} Seq Scan by the planner's choice; plans below)`,
      '',
    ],
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  for (const [n, row] of rows.entries()) {
    log(
      row
        .map((cell, c) => cell.padEnd(widths[c]))
        .join('  ')
        .trimEnd(),
    );
    if (n === 0) log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
  log("\nEXPLAIN (ANALYZE) of the lists' statements, as the services send them:");
  for (const p of report.plans) {
    log(`  ${p.list} ${p.role}: ${p.summary}, ${ms(p.executionMs ?? 0)}`);
    if (p.withoutSeqScan) {
      log(
        `    with enable_seqscan off: ${p.withoutSeqScan.summary}, ${ms(p.withoutSeqScan.executionMs ?? 0)}`,
      );
    }
    if (p.timing) {
      log(
        `    through pg (median of ${p.timing.runs}): ${ms(p.timing.medianMs)}; ` +
          `${ms(p.timing.withoutPartsMedianMs)} without "conversation"."parts"`,
      );
    }
  }
  if (!report.met.atTargetSize) {
    log(
      `\n(The targets are set for ${DEFAULT_CONVERSATIONS} conversations; this run has ${report.settings.conversations}.)`,
    );
  }
}

async function count(db, sql, params = []) {
  const { rows } = await db.query(sql, params);
  return Number(Object.values(rows[0])[0]);
}

/** Nearest-rank percentile. */
function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

const ms = (value) => `${value.toFixed(1)} ms`;
const s = (value) => `${(value / 1000).toFixed(1)} s`;
const pct = (value) => `${(value * 100).toFixed(1)}%`;

// ---------------------------------------------------------------- clustering at scale

/**
 * `node bench/conversations.js --clustering` after `npm run build`: the clustering alone (no
 * database, no HTTP) at BENCH_CLUSTERING_SIZES issues (default 1000,5000,10000,20000) of the
 * labelled corpus's generator run with other seeds (test/fixtures/support-conversations,
 * seeds 100 on, 8 topics). Each size runs in its own process (node --expose-gc): the sparse
 * path that the analysis uses, then, up to BENCH_CLUSTERING_DENSE_MAX issues (default 5000),
 * the n×n similarity matrix it replaced, checked to give the same partition. Reported: time,
 * heap and array buffers held after a full GC before and after (retained), and the growth of the
 * peak resident set (what the computation needed at most; the dense run comes after the sparse
 * one, so its growth counts only beyond the sparse peak). Quality: ARI against the topics.
 */
async function clusteringScale() {
  const { execFileSync } = require('node:child_process');
  const sizes = (process.env.BENCH_CLUSTERING_SIZES ?? '1000,5000,10000,20000')
    .split(',')
    .map((size) => Number(size.trim()))
    .filter((size) => Number.isInteger(size) && size > 0);
  const denseMax = positiveNumber('BENCH_CLUSTERING_DENSE_MAX', 5000);
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-clustering-'));
  cleanups.push(() => fs.rmSync(directory, { recursive: true, force: true }));
  const run = (file, method) => {
    const out = execFileSync(
      process.execPath,
      [
        '--expose-gc',
        '--max-old-space-size=4096',
        process.argv[1],
        '--clustering-run',
        file,
        method,
      ],
      { encoding: 'utf8', maxBuffer: 1 << 20 },
    );
    return JSON.parse(out.trim().split('\n').pop());
  };
  const rows = [];
  for (const size of sizes) {
    // Issues generated here, so that the measuring process holds nothing else.
    const file = path.join(directory, `${size}.json`);
    fs.writeFileSync(file, JSON.stringify(syntheticIssues(size)));
    const sparse = run(file, 'sparse');
    const dense = size <= denseMax ? run(file, 'dense') : null;
    const row = {
      issues: size,
      sparse,
      dense: dense && { ...dense, samePartition: dense.partition === sparse.partition },
    };
    rows.push(row);
    log(
      `${size} issues: sparse ${(sparse.ms / 1000).toFixed(2)} s, peak +${mb(sparse.peakGrowth)}` +
        (dense
          ? `; dense ${(dense.ms / 1000).toFixed(2)} s, peak +${mb(dense.peakGrowth)}, same partition ${row.dense.samePartition}`
          : '; dense skipped'),
    );
  }
  const table = [
    [
      'issues',
      'sparse time',
      'sparse peak growth',
      'ARI',
      'clusters',
      'dense time',
      'dense matrix',
      'dense peak growth',
      'same partition',
    ],
    ...rows.map((r) => [
      String(r.issues),
      `${(r.sparse.ms / 1000).toFixed(2)} s`,
      mb(r.sparse.peakGrowth),
      r.sparse.ari.toFixed(3),
      String(r.sparse.clusters),
      r.dense ? `${(r.dense.ms / 1000).toFixed(2)} s` : 'skipped',
      mb(8 * r.issues * r.issues),
      r.dense ? mb(r.dense.peakGrowth) : '—',
      r.dense ? String(r.dense.samePartition) : '—',
    ]),
  ];
  const widths = table[0].map((_, c) => Math.max(...table.map((row) => row[c].length)));
  log('');
  for (const [n, row] of table.entries()) {
    log(
      row
        .map((cell, c) => cell.padEnd(widths[c]))
        .join('  ')
        .trimEnd(),
    );
    if (n === 0) log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const resultsFile = path.join(RESULTS_DIR, `${stamp}-conversations-clustering.json`);
  fs.writeFileSync(
    resultsFile,
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, rows }, null, 2)}\n`,
  );
  log(`\nResults: ${resultsFile}`);
}

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** `size` issues (terms and topic) of the corpus generator with seeds 100 on, as the analysis extracts them. */
function syntheticIssues(size) {
  const { generate } = require(
    path.join(ROOT, 'test', 'fixtures', 'support-conversations', 'generate.js'),
  );
  const analysis = path.join(DIST, 'conversations', 'analysis');
  const { extractIssues } = require(path.join(analysis, 'issue-extraction.js'));
  const { termCounts } = require(path.join(analysis, 'text-terms.js'));
  const issues = [];
  for (let seed = 100; issues.length < size; seed++) {
    for (const { topic, conversation } of generate(seed)) {
      const parts = { subject: conversation.subject ?? null, parts: conversation.parts };
      extractIssues(parts).forEach((issue, i) => {
        if (issues.length >= size) return;
        const id = `${conversation.id}/${i}`;
        const text = `${issue.title} ${issue.summary} ${conversation.subject ?? ''}`;
        issues.push({ id, key: id, topic, terms: termCounts(text) });
      });
    }
  }
  return issues;
}

/**
 * One clustering of clusteringScale in this process (started with --expose-gc): the issues of
 * `file`, by `method` (sparse: what the analysis runs; dense: the similarity matrix). Prints a
 * JSON line: time, the growth of the peak resident set over the resident set after a full GC
 * before the run (what the clustering needed at most), the partition's ARI and a digest.
 */
function clusteringRun(file, method) {
  const analysis = path.join(DIST, 'conversations', 'analysis');
  const clustering = require(path.join(analysis, 'clustering.js'));
  const { adjustedRandIndex } = require(path.join(analysis, 'partition-quality.js'));
  const issues = JSON.parse(fs.readFileSync(file, 'utf8'));
  const items = clustering.tfIdfItems(issues);
  globalThis.gc();
  const rssBefore = process.memoryUsage().rss;
  const peakBefore = process.resourceUsage().maxRSS * 1024;
  const started = performance.now();
  const groups =
    method === 'dense'
      ? clustering.partitionDense(items, clustering.TFIDF_THRESHOLD)
      : clustering.partition(items, clustering.TFIDF_THRESHOLD);
  const ms = performance.now() - started;
  const peakAfter = process.resourceUsage().maxRSS * 1024;
  const clusterOf = new Map();
  groups.forEach((group, g) => group.forEach((id) => clusterOf.set(id, `c${g}`)));
  const ari = adjustedRandIndex(
    issues.map((issue) => issue.topic),
    issues.map((issue) => clusterOf.get(issue.id) ?? `single:${issue.id}`),
  );
  const partition = require('node:crypto')
    .createHash('sha256')
    .update(JSON.stringify(groups))
    .digest('hex');
  process.stdout.write(
    `${JSON.stringify({ method, ms, rssBefore, peakBefore, peakGrowth: Math.max(0, peakAfter - Math.max(rssBefore, peakBefore)), clusters: groups.length, ari, partition })}\n`,
  );
}

const runIndex = process.argv.indexOf('--clustering-run');
if (runIndex !== -1) {
  clusteringRun(process.argv[runIndex + 1], process.argv[runIndex + 2]);
} else if (process.argv.includes('--clustering')) {
  runMain(clusteringScale);
} else {
  runMain(main);
}
