'use strict';
/**
 * A deterministic fake of an OpenAI-compatible embeddings API, for the answer retrieval
 * benchmark (answers-quality.js --embeddings): `POST /embeddings` with `{model, input}` (a
 * string or a list of strings) answers `{object:'list', data:[{object:'embedding', embedding,
 * index}], model, usage}`. Each vector is 256 numbers: word unigrams, word bigrams and
 * character trigrams of the text (lower-cased, accents folded) hashed into 256 signed buckets,
 * weighted by log(1 + count), normalized to length 1. No model, no network: the same text gives
 * the same vector, and texts sharing words or pieces of words have a positive cosine.
 *
 *   node bench/fake-embeddings.js [port]   # serves until Ctrl-C, prints its URL
 */
const http = require('node:http');

const DIMENSIONS = 256;
const MODEL = 'fake-hash-256';
/** Weights of the three kinds of features. */
const WEIGHTS = { word: 1, bigram: 0.7, trigram: 0.35 };

/** FNV-1a, 32 bits. */
function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Lower-cased words, accents folded (é → e, ß stays). */
function words(text) {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The vector of one text. */
function embed(text) {
  const counts = new Map();
  const add = (feature, weight) => counts.set(feature, (counts.get(feature) ?? 0) + weight);
  const tokens = words(String(text));
  tokens.forEach((word, i) => {
    add(`w:${word}`, WEIGHTS.word);
    if (i > 0) add(`b:${tokens[i - 1]} ${word}`, WEIGHTS.bigram);
    const padded = `#${word}#`;
    for (let j = 0; j + 3 <= padded.length; j++)
      add(`t:${padded.slice(j, j + 3)}`, WEIGHTS.trigram);
  });
  const vector = new Array(DIMENSIONS).fill(0);
  for (const [feature, weight] of counts) {
    const hash = fnv1a(feature);
    const sign = hash & 0x80000000 ? -1 : 1;
    vector[hash % DIMENSIONS] += sign * Math.log1p(weight);
  }
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
  // An empty text: a fixed unit vector rather than zeros (a cosine with zeros is undefined).
  if (norm === 0) return vector.map((_, i) => (i === 0 ? 1 : 0));
  return vector.map((x) => Math.round((x / norm) * 1e6) / 1e6);
}

/**
 * An OpenAI-compatible embeddings server on 127.0.0.1 (`port`, default any free one) answering
 * with `embedMany(texts)`'s vectors (may be async). Answers `url` (the base URL to give as
 * AI_API_URL), `stats` (requests and texts embedded) and `close()`.
 */
async function startEmbeddingsServer({ model, embedMany, port = 0 }) {
  const stats = { requests: 0, texts: 0, other: 0 };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const reply = (status, body) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const pathname = (req.url ?? '/').split('?')[0].replace(/\/+$/, '');
      if (req.method !== 'POST' || !pathname.endsWith('/embeddings')) {
        stats.other++;
        return reply(404, { error: { message: `No ${req.method} ${pathname} here` } });
      }
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return reply(400, { error: { message: 'The body is not JSON' } });
      }
      const input = typeof body.input === 'string' ? [body.input] : body.input;
      if (!Array.isArray(input) || input.some((text) => typeof text !== 'string')) {
        return reply(400, { error: { message: '`input` must be a string or a list of strings' } });
      }
      stats.requests++;
      stats.texts += input.length;
      const tokens = input.reduce((sum, text) => sum + words(text).length, 0);
      Promise.resolve(embedMany(input)).then(
        (vectors) =>
          reply(200, {
            object: 'list',
            data: vectors.map((embedding, index) => ({ object: 'embedding', embedding, index })),
            model: body.model ?? model,
            usage: { prompt_tokens: tokens, total_tokens: tokens },
          }),
        (error) => reply(500, { error: { message: String(error?.message ?? error) } }),
      );
    });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
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

/** The fake model's server (see the top of this file). */
function startFakeEmbeddings(port = 0) {
  return startEmbeddingsServer({ model: MODEL, embedMany: (texts) => texts.map(embed), port });
}

module.exports = { DIMENSIONS, MODEL, embed, startEmbeddingsServer, startFakeEmbeddings };

if (require.main === module) {
  startFakeEmbeddings(Number(process.argv[2] ?? 0)).then((server) => {
    process.stdout.write(`Fake embeddings (${MODEL}) at ${server.url}\n`);
  });
}
