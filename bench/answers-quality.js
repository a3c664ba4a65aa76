'use strict';
/* global fetch */
/**
 * Retrieval quality of a site's answers (`streamAskInSite`): real documentation repositories
 * written by GitBook's Git Sync are imported into the spaces of published sites through
 * Bindery's Git import, then every labelled question of bench/questions/*.json is asked of its
 * repository's site with no chat model configured (the one event carries the sources the search
 * found); a question is found at rank k when the page that answers it is the k-th of the cited
 * sources. Prints recall@1, @3, @5 and MRR per repository, per language and overall. See
 * bench/README.md, "Answer retrieval quality".
 *
 *   npm run build && node bench/answers-quality.js /work/corpus [--embeddings[=sentence-encoder|endpoint]]
 *     [--repo <name>]…
 *
 * The corpus folder holds one clone per repository, named as the questions' `repository`.
 * `--embeddings` also starts the fake embeddings server (fake-embeddings.js) and gives Bindery
 * AI_API_URL and AI_EMBEDDING_MODEL=fake-hash-256; `--embeddings=sentence-encoder` serves a
 * real model instead (sentence-encoder-embeddings.js, installed apart); `--embeddings=endpoint`
 * uses your own model server: BENCH_AI_API_URL (OpenAI-compatible), BENCH_EMBEDDING_MODEL,
 * BENCH_AI_API_KEY when it needs one. Env: DATABASE_URL (a PostgreSQL server: a
 * throwaway database is created there and dropped; unset: the embedded database in Bindery's
 * process), ANSWERS_QUESTIONS (a folder of question files, default bench/questions).
 * Reports go to bench/results/<time>-answers-quality.json (with every miss).
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const {
  RESULTS_DIR,
  BINDERY_MAIN,
  log,
  sleep,
  cleanups,
  runMain,
  checkInterrupted,
  startBinderyOwnDatabase,
  createOrganization,
  api,
} = require('./lib');
const { startGitServer } = require('./git-server');
const fakeEmbeddings = require('./fake-embeddings');
const sentenceEncoder = require('./sentence-encoder-embeddings');

/** The embedding models `--embeddings[=name]` can serve to Bindery. */
const EMBEDDERS = {
  fake: { model: fakeEmbeddings.MODEL, start: () => fakeEmbeddings.startFakeEmbeddings() },
  'sentence-encoder': {
    model: sentenceEncoder.MODEL,
    start: () => sentenceEncoder.startSentenceEncoderEmbeddings(),
  },
  // A model server of your own (Ollama, a cloud endpoint): its OpenAI-compatible URL and model.
  endpoint: {
    model: process.env.BENCH_EMBEDDING_MODEL,
    start: async () => {
      if (!process.env.BENCH_AI_API_URL || !process.env.BENCH_EMBEDDING_MODEL) {
        throw new Error('--embeddings=endpoint needs BENCH_AI_API_URL and BENCH_EMBEDDING_MODEL');
      }
      return { url: process.env.BENCH_AI_API_URL, close: async () => undefined };
    },
  },
};

const IMPORT_TIMEOUT_MS = 20 * 60 * 1000;
const INDEX_TIMEOUT_MS = 10 * 60 * 1000;
/** Sources an answer cites (Bindery's SOURCE_PAGES). */
const CITED = 5;

function parseArgs(argv) {
  const options = { corpus: undefined, embeddings: false, only: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--embeddings') options.embeddings = 'fake';
    else if (arg.startsWith('--embeddings='))
      options.embeddings = arg.slice('--embeddings='.length);
    else if (arg === '--repo') options.only.push(argv[++i]);
    else if (arg === '--help' || arg === '-h') {
      log(
        'node bench/answers-quality.js <folder of repositories> ' +
          '[--embeddings | --embeddings=sentence-encoder | --embeddings=endpoint] [--repo <name>]…',
      );
      process.exit(0);
    } else options.corpus = arg;
  }
  if (options.embeddings && !EMBEDDERS[options.embeddings]) {
    process.stderr.write(
      `--embeddings=${options.embeddings}: fake, sentence-encoder or endpoint\n`,
    );
    process.exit(2);
  }
  if (!options.corpus) {
    process.stderr.write('Usage: node bench/answers-quality.js <folder of repositories>\n');
    process.exit(2);
  }
  options.corpus = path.resolve(options.corpus);
  return options;
}

/** Every question of the question files, checked: {question, repository, page, language}. */
function readQuestions(dir) {
  const questions = [];
  for (const file of fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    const list = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    if (!Array.isArray(list)) throw new Error(`${file}: not a list of questions`);
    for (const [i, q] of list.entries()) {
      for (const field of ['question', 'repository', 'page', 'language']) {
        if (typeof q[field] !== 'string' || !q[field]) {
          throw new Error(`${file} #${i}: no ${field}`);
        }
      }
      questions.push({ ...q, file, index: questions.length });
    }
  }
  return questions;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const questionsDir = path.resolve(
    process.env.ANSWERS_QUESTIONS ?? path.join(__dirname, 'questions'),
  );
  let questions = readQuestions(questionsDir);
  if (options.only.length) questions = questions.filter((q) => options.only.includes(q.repository));
  const repositories = [...new Set(questions.map((q) => q.repository))].sort();
  if (!repositories.length) throw new Error('No question to ask');
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  fs.mkdirSync(RESULTS_DIR, { recursive: true });

  // The repositories, served over smart HTTP as Bindery's import reads them.
  const server = await startGitServer();
  cleanups.push(() => server.close());
  const corpus = repositories.map((name) => {
    const dir = path.join(options.corpus, name);
    if (!fs.existsSync(path.join(dir, '.git'))) {
      throw new Error(`${dir} is not a clone of the repository ${name}`);
    }
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' });
    const url = server.createRepository(name);
    execFileSync('git', ['push', '--quiet', server.bare(name), 'HEAD:refs/heads/main'], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    return { name, dir, commit: commit.trim(), url };
  });

  let embeddings;
  const embeddingModel = options.embeddings ? EMBEDDERS[options.embeddings].model : undefined;
  if (options.embeddings) {
    embeddings = await EMBEDDERS[options.embeddings].start();
    cleanups.push(() => embeddings.close());
    log(`Embeddings (${embeddingModel}) at ${embeddings.url}`);
  }
  const bindery = await startBinderyOwnDatabase('answers-quality', stamp, {
    AI_ASK_PER_VISITOR_PER_MINUTE: '0',
    AI_ASK_PER_SITE_PER_MINUTE: '0',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    // No chat model: the one event of an answer carries the sources.
    ...(embeddings ? { AI_API_URL: embeddings.url, AI_EMBEDDING_MODEL: embeddingModel } : {}),
    ...(embeddings && process.env.BENCH_AI_API_KEY
      ? { AI_API_KEY: process.env.BENCH_AI_API_KEY }
      : {}),
  });
  log(`Bindery on ${bindery.database} (log: ${bindery.logFile})`);
  const { token, org } = await createOrganization(bindery.baseUrl, bindery.adminToken, 'answers');
  const call = (method, pathname, body, expected) =>
    api(bindery.baseUrl, method, pathname, token, body, expected);
  await call('PATCH', `/v1/orgs/${org.id}`, { ai: true }, 200);

  // One published site per repository, AI search on, its one space imported from Git.
  const sites = new Map();
  for (const repo of corpus) {
    checkInterrupted('importing');
    const space = await call(
      'POST',
      `/v1/orgs/${org.id}/spaces`,
      { title: repo.name, empty: true },
      201,
    );
    const imported = await importSpace(bindery.baseUrl, token, space.id, repo.url);
    const site = await call('POST', `/v1/orgs/${org.id}/sites`, { title: repo.name }, 201);
    const sitePath = `/v1/orgs/${org.id}/sites/${site.id}`;
    const siteSpace = await call('POST', `${sitePath}/site-spaces`, { spaceId: space.id }, 201);
    await call('PUT', `${sitePath}/customization`, { ai: { mode: 'search' } }, 200);
    await call('POST', `${sitePath}/publish`, undefined, 200);
    const content = await call('GET', `/v1/spaces/${space.id}/content`, undefined, 200);
    const pages = flatten(content.pages);
    const byPath = new Map(pages.filter((p) => p.git?.path).map((p) => [p.git.path, p]));
    const indexed = await waitForIndex(call, space.id, pages);
    log(
      `${repo.name} (${repo.commit.slice(0, 12)}): ${byPath.size} pages from Git imported in ` +
        `${imported.toFixed(1)} s, search index ready ${indexed.toFixed(1)} s later`,
    );
    sites.set(repo.name, { repo, space, site, siteSpace, byPath, pageCount: byPath.size });
  }

  // Every question's page must be one of its space's pages.
  const unknown = questions.filter((q) => !sites.get(q.repository).byPath.has(q.page));
  if (unknown.length) {
    throw new Error(
      `Pages not in their imported space:\n${unknown.map((q) => `  ${q.repository}: ${q.page}`).join('\n')}`,
    );
  }

  // The questions, one at a time, as the owner (who reads all of the site).
  const started = performance.now();
  const outcomes = [];
  for (const q of questions) {
    checkInterrupted('asking');
    const { site, siteSpace, byPath, space } = sites.get(q.repository);
    const expected = byPath.get(q.page).id;
    const sources = await ask(bindery.baseUrl, token, org.id, site.id, siteSpace.id, q.question);
    const pathOf = new Map([...byPath].map(([file, page]) => [page.id, file]));
    const cited = sources
      .filter((source) => source.space === space.id)
      .map((source) => pathOf.get(source.page) ?? source.page);
    const rank = sources.findIndex((source) => source.page === expected) + 1;
    outcomes.push({ ...q, rank, cited });
  }
  const askSeconds = (performance.now() - started) / 1000;

  // Each miss diagnosed: where the answering page ranks in the space search of the whole
  // question, and which of the question's telling words (as the retrieval takes them,
  // `tellingWords`) are not on the page.
  const wordsOf = retrievalWords();
  for (const miss of outcomes.filter((o) => o.rank === 0)) {
    const { byPath, space, repo } = sites.get(miss.repository);
    const expected = byPath.get(miss.page).id;
    const hits = await call(
      'GET',
      `/v1/spaces/${space.id}/search?query=${encodeURIComponent(miss.question)}`,
      undefined,
      200,
    );
    miss.questionSearch = {
      rank: hits.items.findIndex((hit) => hit.id === expected) + 1,
      results: hits.items.length,
    };
    const text = fold(fs.readFileSync(path.join(repo.dir, miss.page), 'utf8'));
    miss.words = wordsOf ? wordsOf(miss.question) : [];
    miss.absentWords = miss.words.filter(
      (word) => !text.includes(fold(word).slice(0, Math.max(4, word.length - 2))),
    );
  }
  const overall = score(outcomes);
  // The questions split by their position in the list (files in name order): the even ones
  // are the half retrieval's parameters were chosen on, the odd ones held out.
  const halves = {
    'tuning (even)': score(outcomes.filter((o) => o.index % 2 === 0)),
    'held-out (odd)': score(outcomes.filter((o) => o.index % 2 === 1)),
  };
  const perRepository = Object.fromEntries(
    repositories.map((name) => [name, score(outcomes.filter((o) => o.repository === name))]),
  );
  const languages = [...new Set(outcomes.map((o) => o.language))].sort();
  const perLanguage = Object.fromEntries(
    languages.map((language) => [language, score(outcomes.filter((o) => o.language === language))]),
  );
  log('');
  log(`Mode: ${options.embeddings ? `embeddings (${embeddingModel})` : 'full-text'}`);
  log(`${outcomes.length} questions asked in ${askSeconds.toFixed(1)} s`);
  log('');
  log(table('repository', { ...perRepository, overall }));
  log('');
  log(table('half', halves));
  log('');
  log(table('language', perLanguage));
  if (embeddings) {
    log('');
    log(
      `Embeddings asked of the model: ${embeddings.stats.requests} requests, ` +
        `${embeddings.stats.texts} texts` +
        (embeddings.stats.texts === 0
          ? ' (Bindery did not use embeddings: the figures are full-text retrieval’s)'
          : ''),
    );
  }
  const misses = outcomes.filter((o) => o.rank === 0);
  log('');
  log(`Misses (${misses.length}):`);
  for (const miss of misses) {
    log(`  [${miss.repository} ${miss.language}] ${miss.question}`);
    log(`      answer: ${miss.page}; cited: ${miss.cited.join(', ') || '(none)'}`);
    const found = miss.questionSearch;
    log(
      `      its rank in the space search of the question: ` +
        `${found.rank ? `#${found.rank}` : `-/${found.results}`}; words: ${miss.words.join(' ')}`,
    );
    if (miss.absentWords.length) log(`      words not on the page: ${miss.absentWords.join(', ')}`);
  }
  const target = overall.recallAt5 >= 0.9;
  log('');
  log(
    `${target ? 'PASS' : 'MISS'}: ${pct(overall.recallAt5)} of the questions have their page ` +
      `among the cited sources (target ≥ 90%)`,
  );
  const report = path.join(RESULTS_DIR, `${stamp}-answers-quality.json`);
  fs.writeFileSync(
    report,
    `${JSON.stringify(
      {
        mode: options.embeddings ? `embeddings (${embeddingModel})` : 'full-text',
        database: bindery.database,
        corpus: corpus.map(({ name, commit }) => ({
          name,
          commit,
          pages: sites.get(name).pageCount,
        })),
        embeddings: embeddings?.stats,
        overall,
        perRepository,
        perLanguage,
        halves,
        askSeconds,
        outcomes: outcomes.map(({ file: _file, ...o }) => o),
      },
      null,
      2,
    )}\n`,
  );
  log(`Results: ${report}`);
}

/** Bindery's own telling words of a question (dist/src/answers/retrieval.js), if built. */
function retrievalWords() {
  const file = path.join(path.dirname(BINDERY_MAIN), 'answers', 'retrieval.js');
  if (!fs.existsSync(file)) return undefined;
  return require(file).tellingWords;
}

/** Lower-cased, accents folded. */
const fold = (text) =>
  text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

/** Imports `url` into the space; answers the seconds it took. */
async function importSpace(baseUrl, token, spaceId, url) {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/v1/spaces/${spaceId}/git/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url, ref: 'main' }),
  });
  if (response.status !== 204) {
    throw new Error(`Git import: ${response.status} ${await response.text()}`);
  }
  for (const deadline = Date.now() + IMPORT_TIMEOUT_MS; Date.now() < deadline; await sleep(250)) {
    checkInterrupted('importing');
    const { lastOperation } = await api(
      baseUrl,
      'GET',
      `/v1/spaces/${spaceId}/git/info`,
      token,
      undefined,
      200,
    );
    if (lastOperation.status === 'complete') return (performance.now() - started) / 1000;
    if (lastOperation.status !== 'pending' && lastOperation.status !== 'running') {
      throw new Error(`The import ended ${lastOperation.status}: ${lastOperation.error ?? ''}`);
    }
  }
  throw new Error('The import did not end');
}

/** Every page of a revision's tree, depth first. */
function flatten(pages, into = []) {
  for (const page of pages ?? []) {
    into.push(page);
    flatten(page.pages, into);
  }
  return into;
}

/**
 * Waits until the space search finds every document page by its title (the search index
 * follows an import in steps); answers the seconds waited. A page found by no search of its
 * title (a title shared with many pages ranks it below the first results) stops being waited
 * for once 90% of the pages are found and none more has been for 15 s, or after
 * INDEX_TIMEOUT_MS.
 */
async function waitForIndex(call, spaceId, pages) {
  const started = performance.now();
  let pending = pages.filter((page) => page.type === 'document' && page.title?.trim());
  const total = pending.length;
  let lastProgress = Date.now();
  for (const deadline = Date.now() + INDEX_TIMEOUT_MS; pending.length; await sleep(1000)) {
    checkInterrupted('waiting for the search index');
    const left = [];
    for (const page of pending) {
      const query = encodeURIComponent(`"${page.title.replace(/"/g, ' ')}"`);
      const hits = await call('GET', `/v1/spaces/${spaceId}/search?query=${query}`, undefined, 200);
      if (!hits.items.some((hit) => hit.id === page.id)) left.push(page);
    }
    if (left.length < pending.length) lastProgress = Date.now();
    pending = left;
    if (process.env.ANSWERS_VERBOSE) log(`  index: ${total - pending.length}/${total} pages found`);
    const stalled = pending.length <= total * 0.1 && Date.now() - lastProgress > 15_000;
    if (pending.length && (stalled || Date.now() > deadline)) {
      log(
        `  the search does not find ${pending.length} pages by their title ` +
          `(${pending.map((page) => page.title).join(', ')}): not waiting for them`,
      );
      break;
    }
  }
  return (performance.now() - started) / 1000;
}

/** The sources of an answer to `question`, in the order cited. */
async function ask(baseUrl, token, orgId, siteId, siteSpaceId, question) {
  const response = await fetch(`${baseUrl}/v1/orgs/${orgId}/sites/${siteId}/ask`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify({
      question,
      context: { siteSpaceId },
      scope: { mode: 'default', currentSiteSpace: siteSpaceId },
    }),
  });
  const text = await response.text();
  if (response.status !== 200) {
    throw new Error(`ask "${question}": ${response.status} ${text.slice(0, 300)}`);
  }
  for (const event of text.split(/\r?\n\r?\n/)) {
    const lines = event.split(/\r?\n/);
    if (lines.some((line) => line.startsWith('event:') && line.slice(6).trim() !== 'message')) {
      if (lines.some((line) => line.startsWith('event: error'))) {
        throw new Error(`ask "${question}": ${event}`);
      }
      continue;
    }
    const data = lines
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (!data) continue;
    const parsed = JSON.parse(data);
    if (parsed.type === 'answer') return parsed.answer.sources ?? [];
  }
  throw new Error(`ask "${question}": no answer event in ${text.slice(0, 300)}`);
}

/** Recall at 1, 3 and 5 and the mean reciprocal rank of outcomes (rank 0: not cited). */
function score(outcomes) {
  const n = outcomes.length;
  const at = (k) => (n ? outcomes.filter((o) => o.rank > 0 && o.rank <= k).length / n : 0);
  return {
    questions: n,
    recallAt1: at(1),
    recallAt3: at(3),
    recallAt5: at(CITED),
    mrr: n ? outcomes.reduce((sum, o) => sum + (o.rank > 0 ? 1 / o.rank : 0), 0) / n : 0,
  };
}

const pct = (value) => `${(value * 100).toFixed(1)}%`;

function table(label, rows) {
  const header = [label, 'questions', 'recall@1', 'recall@3', 'recall@5', 'MRR'];
  const body = Object.entries(rows).map(([name, s]) => [
    name,
    String(s.questions),
    pct(s.recallAt1),
    pct(s.recallAt3),
    pct(s.recallAt5),
    s.mrr.toFixed(3),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (row) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

runMain(main);
