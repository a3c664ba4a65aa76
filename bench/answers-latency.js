'use strict';
/* global fetch, TextDecoder */
/**
 * `node bench/answers-latency.js` after `npm run build`: how long a site's answer
 * (`streamAskInSite`) costs Bindery itself, on a site of ANSWERS_LATENCY_PAGES pages (10,000).
 * A repository of that size (generated-repository.js) is imported through the Git import into
 * the space of a published site with AI search on; Bindery's model is a fake OpenAI-compatible
 * server in this process (chat completions streamed after FIRST_TOKEN_MS, and
 * fake-embeddings.js's vectors with `--embeddings`). Then ANSWERS_LATENCY_QUESTIONS questions
 * (200, after 20 to warm up) are asked one at a time, and measured on one clock:
 *
 * - **before the model**: from the request sent to the chat request received by the model
 *   (authorisation, retrieval, prompt; plus the search by meaning's embedding call with
 *   `--embeddings`);
 * - **first token → first event**: from the model writing its first token to the client reading
 *   the first event that holds it.
 *
 * Env: DATABASE_URL (PostgreSQL server for a throwaway database; unset = the embedded database
 * in Bindery's process), ANSWERS_LATENCY_PAGES, ANSWERS_LATENCY_QUESTIONS. See bench/README.md,
 * "Answer latency".
 */
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const {
  RESULTS_DIR,
  positiveNumber,
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
const { writeRepository } = require('./generated-repository');
const { MODEL: EMBEDDING_MODEL, embed } = require('./fake-embeddings');

const PAGES = Math.ceil(positiveNumber('ANSWERS_LATENCY_PAGES', 10_000));
const QUESTIONS = Math.ceil(positiveNumber('ANSWERS_LATENCY_QUESTIONS', 200));
const WARM_UP = 20;
/** How long the fake model thinks before its first token, and between tokens. */
const FIRST_TOKEN_MS = 150;
const TOKEN_MS = 5;
const TOKENS = ['The ', 'page ', 'explains ', 'it: ', 'see ', 'the ', 'steps ', 'listed.'];
const TIMEOUT_MS = 60 * 60 * 1000;
const CHAT_MODEL = 'fake-chat';

async function main() {
  const embeddings = process.argv.includes('--embeddings');
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const model = await startFakeModel();
  cleanups.push(() => model.close());
  const server = await startGitServer();
  cleanups.push(() => server.close());
  const url = server.createRepository('docs');
  const generated = writeRepository(server.bare('docs'), { pages: PAGES, files: 0 });
  log(`Repository: ${generated.pages} pages in ${generated.groups} parts`);

  const bindery = await startBinderyOwnDatabase('answers-latency', stamp, {
    AI_ASK_PER_VISITOR_PER_MINUTE: '0',
    AI_ASK_PER_SITE_PER_MINUTE: '0',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    AI_API_URL: model.url,
    AI_MODEL: CHAT_MODEL,
    AI_EMBEDDING_MODEL: embeddings ? EMBEDDING_MODEL : '',
  });
  log(`Bindery on ${bindery.database} (log: ${bindery.logFile})`);
  const { token, org } = await createOrganization(bindery.baseUrl, bindery.adminToken, 'latency');
  const call = (method, pathname, body, expected) =>
    api(bindery.baseUrl, method, pathname, token, body, expected);
  await call('PATCH', `/v1/orgs/${org.id}`, { ai: true }, 200);
  const space = await call(
    'POST',
    `/v1/orgs/${org.id}/spaces`,
    { title: 'Docs', empty: true },
    201,
  );
  const started = performance.now();
  await importSpace(call, bindery.baseUrl, token, space.id, url);
  log(`Imported in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const site = await call('POST', `/v1/orgs/${org.id}/sites`, { title: 'Docs' }, 201);
  const sitePath = `/v1/orgs/${org.id}/sites/${site.id}`;
  const siteSpace = await call('POST', `${sitePath}/site-spaces`, { spaceId: space.id }, 201);
  await call('PUT', `${sitePath}/customization`, { ai: { mode: 'search' } }, 200);
  await call('POST', `${sitePath}/publish`, undefined, 200);
  // The search index follows the import in steps: wait until it has the last page.
  const last = `Page ${PAGES - 1}`;
  for (const deadline = Date.now() + TIMEOUT_MS; ; await sleep(1000)) {
    checkInterrupted('waiting for the search index');
    const hits = await call(
      'GET',
      `/v1/spaces/${space.id}/search?query=${encodeURIComponent(`"${last}"`)}`,
      undefined,
      200,
    );
    if (hits.items.some((hit) => hit.title === last)) break;
    if (Date.now() > deadline) throw new Error('The search index did not catch up');
  }
  if (embeddings) {
    // Section embeddings follow the index: wait until the model stops being asked for them.
    let seen = -1;
    while (model.stats.embeddedTexts !== seen) {
      seen = model.stats.embeddedTexts;
      await sleep(5000);
    }
    log(`Embeddings: ${model.stats.embeddedTexts} texts embedded`);
  }
  log(
    `Search index ready ${((performance.now() - started) / 1000).toFixed(1)} s after the import began`,
  );

  const beforeModel = [];
  const firstEvent = [];
  const total = [];
  for (let i = 0; i < WARM_UP + QUESTIONS; i++) {
    checkInterrupted('asking');
    const question = questionOf(i);
    const timing = await ask(
      bindery.baseUrl,
      token,
      org.id,
      site.id,
      siteSpace.id,
      question,
      model,
    );
    if (i < WARM_UP) continue;
    beforeModel.push(timing.beforeModel);
    firstEvent.push(timing.firstEvent);
    total.push(timing.total);
  }
  const report = {
    stamp,
    pages: generated.pages,
    questions: QUESTIONS,
    embeddings,
    database: bindery.database,
    firstTokenMs: FIRST_TOKEN_MS,
    load: os.loadavg(),
    beforeModel: percentiles(beforeModel),
    firstEvent: percentiles(firstEvent),
    total: percentiles(total),
  };
  log(`Before the model (request → chat request): ${describe(report.beforeModel)}`);
  log(`First token → first event:                  ${describe(report.firstEvent)}`);
  log(`Whole answer (request → done):              ${describe(report.total)}`);
  const file = path.join(RESULTS_DIR, `${stamp}-answers-latency.json`);
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  log(`Results: ${file}`);
}

/** A question over the generated pages: their words, a page number, several phrasings. */
function questionOf(i) {
  const page = (i * 7919) % PAGES;
  const forms = [
    `How do I configure page ${page}?`,
    `step two of ${page}`,
    `Where is the installation explained in part ${Math.floor(page / 100)}?`,
    `What does page ${page} say about usage?`,
    `Comment utiliser la page ${page} ?`,
  ];
  return forms[i % forms.length];
}

/**
 * The fake model: `POST …/chat/completions` streamed (the first token after FIRST_TOKEN_MS),
 * `POST …/embeddings` with fake-embeddings.js's vectors. Each chat request's arrival and first
 * token are noted (performance.now(), the bench's clock) for the ask in flight.
 */
async function startFakeModel() {
  const stats = { chats: 0, embeddedTexts: 0, lastChat: undefined };
  const server = http.createServer((req, res) => {
    const arrived = performance.now();
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const pathname = (req.url ?? '/').split('?')[0].replace(/\/+$/, '');
      let body = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400).end();
        return;
      }
      if (pathname.endsWith('/embeddings')) {
        const input = typeof body.input === 'string' ? [body.input] : body.input;
        stats.embeddedTexts += input.length;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            object: 'list',
            data: input.map((text, index) => ({
              object: 'embedding',
              embedding: embed(text),
              index,
            })),
            model: EMBEDDING_MODEL,
            usage: { prompt_tokens: input.length, total_tokens: input.length },
          }),
        );
        return;
      }
      if (!pathname.endsWith('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      const chat = { arrived, firstToken: undefined };
      stats.chats++;
      stats.lastChat = chat;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const send = (data) => res.write(`data: ${JSON.stringify(data)}\n\n`);
      const chunk = (content, finish = null) => ({
        id: 'chatcmpl-bench',
        object: 'chat.completion.chunk',
        created: 0,
        model: CHAT_MODEL,
        choices: [
          { index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish },
        ],
      });
      let n = 0;
      const next = () => {
        if (res.destroyed) return;
        if (n < TOKENS.length) {
          if (n === 0) chat.firstToken = performance.now();
          send(chunk(TOKENS[n++]));
          setTimeout(next, TOKEN_MS);
          return;
        }
        send(chunk(undefined, 'stop'));
        send({
          ...chunk(undefined),
          choices: [],
          usage: { prompt_tokens: 100, completion_tokens: 8, total_tokens: 108 },
        });
        res.end('data: [DONE]\n\n');
      };
      setTimeout(next, FIRST_TOKEN_MS);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    stats,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Asks `question` with `format=markdown`, reading the stream as it comes; answers the time to
 * the model's chat request, from its first token to the first event holding it, and in all.
 */
async function ask(baseUrl, token, orgId, siteId, siteSpaceId, question, model) {
  model.stats.lastChat = undefined;
  const sent = performance.now();
  const response = await fetch(`${baseUrl}/v1/orgs/${orgId}/sites/${siteId}/ask?format=markdown`, {
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
  if (response.status !== 200) {
    throw new Error(`ask "${question}": ${response.status} ${await response.text()}`);
  }
  let buffered = '';
  let firstAnswered;
  const decoder = new TextDecoder();
  for await (const bytes of response.body) {
    buffered += decoder.decode(bytes, { stream: true });
    let end;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const event = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      if (event.startsWith('event: error')) throw new Error(`ask "${question}": ${event}`);
      const data = event
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (!data || firstAnswered !== undefined) continue;
      const parsed = JSON.parse(data);
      if (parsed.type === 'answer' && parsed.answer?.answer?.markdown) {
        firstAnswered = performance.now();
      }
    }
  }
  const done = performance.now();
  const chat = model.stats.lastChat;
  if (!chat?.firstToken || firstAnswered === undefined) {
    throw new Error(`ask "${question}": the model was not asked, or its answer not streamed`);
  }
  return {
    beforeModel: chat.arrived - sent,
    firstEvent: firstAnswered - chat.firstToken,
    total: done - sent,
  };
}

async function importSpace(call, baseUrl, token, spaceId, url) {
  const response = await fetch(`${baseUrl}/v1/spaces/${spaceId}/git/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url, ref: 'main' }),
  });
  if (response.status !== 204)
    throw new Error(`Git import: ${response.status} ${await response.text()}`);
  for (const deadline = Date.now() + TIMEOUT_MS; Date.now() < deadline; await sleep(500)) {
    checkInterrupted('importing');
    const { lastOperation } = await call('GET', `/v1/spaces/${spaceId}/git/info`, undefined, 200);
    if (lastOperation.status === 'complete') return;
    if (lastOperation.status !== 'pending' && lastOperation.status !== 'running') {
      throw new Error(`The import ended ${lastOperation.status}: ${lastOperation.error ?? ''}`);
    }
  }
  throw new Error('The import did not end');
}

function percentiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const round = (value) => Math.round(value * 10) / 10;
  return {
    count: sorted.length,
    p50: round(at(0.5)),
    p95: round(at(0.95)),
    p99: round(at(0.99)),
    max: round(sorted.at(-1)),
  };
}

function describe({ count, p50, p95, p99, max }) {
  return `${count} asks, p50 ${p50} ms, p95 ${p95} ms, p99 ${p99} ms, max ${max} ms`;
}

runMain(main);
