'use strict';
/**
 * The ceiling of `npm run bench`: a bare `node:http` + `pg` server doing the queries of
 * Bindery's cheapest authenticated reads and nothing else. Bearer token → SHA-256 (hex) → the
 * same token lookup Bindery runs → one SELECT of the resource joined with the caller's
 * membership → JSON. Same `pg` pool size as Bindery's default (10). No framework, logging,
 * validation, rate limiting, policy or presenter: the gap between the two is the cost of
 * everything around the queries.
 *
 *   GET /v1/orgs/:organizationId
 *   GET /v1/spaces/:spaceId
 *   GET /v1/spaces/:spaceId/change-requests/:changeRequestId
 *   GET /v1/orgs/:organizationId/spaces?limit=N   (the first N live spaces, oldest first)
 *
 * Env: PORT (default 3100), DATABASE_URL (required), DATABASE_POOL_SIZE (default 10).
 */
const { createHash } = require('node:crypto');
const http = require('node:http');
const { URL } = require('node:url');
const { Pool } = require('pg');

const TOKEN_LOOKUP = `SELECT t.user_id FROM api_tokens t JOIN users u ON u.id = t.user_id
  WHERE t.token_hash = $1 AND NOT u.disabled AND (t.expires_at IS NULL OR t.expires_at > now())`;
const MEMBER = `JOIN organization_members m
  ON m.organization_id = r.organization_id AND m.user_id = $2 AND NOT m.disabled`;
const ORGANIZATION = `SELECT r.*, m.role FROM organizations r
  JOIN organization_members m ON m.organization_id = r.id AND m.user_id = $2 AND NOT m.disabled
  WHERE r.id = $1`;
const SPACE = `SELECT r.*, m.role FROM spaces r ${MEMBER} WHERE r.id = $1 AND r.deleted_at IS NULL`;
const CHANGE_REQUEST = `SELECT r.*, m.role FROM change_requests r ${MEMBER}
  WHERE r.id = $1 AND r.space_id = $3`;
const SPACES = `SELECT r.*, m.role FROM spaces r ${MEMBER}
  WHERE r.organization_id = $1 AND r.deleted_at IS NULL
  ORDER BY r.created_at, r.id LIMIT $3`;

const port = Number(process.env.PORT ?? 3100);
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  process.stderr.write('baseline: DATABASE_URL is required\n');
  process.exit(1);
}

const pool = new Pool({
  connectionString: databaseUrl,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});
pool.on('error', (error) =>
  process.stderr.write(`baseline: idle client error: ${error.message}\n`),
);

/** Routes: a pattern, and the query with its parameters from the path's captures. */
const routes = [
  { pattern: /^\/v1\/orgs\/([\w-]+)$/, read: ([id]) => [ORGANIZATION, [id]] },
  { pattern: /^\/v1\/spaces\/([\w-]+)$/, read: ([id]) => [SPACE, [id]] },
  {
    pattern: /^\/v1\/spaces\/([\w-]+)\/change-requests\/([\w-]+)$/,
    read: ([spaceId, id]) => [CHANGE_REQUEST, [id, spaceId]],
  },
  {
    pattern: /^\/v1\/orgs\/([\w-]+)\/spaces$/,
    read: ([id], query) => [SPACES, [id, Math.min(Number(query.get('limit') ?? 50), 100)]],
    list: true,
  },
];

function send(res, status, body) {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
  });
  res.end(json);
}

/** A row as JSON: camelCase keys, dates as ISO strings. */
function present(row) {
  const out = { object: 'resource' };
  for (const [key, value] of Object.entries(row)) {
    out[key.replace(/_(\w)/g, (_, c) => c.toUpperCase())] =
      value instanceof Date ? value.toISOString() : value;
  }
  return out;
}

async function handle(req, res) {
  const url = new URL(req.url, 'http://baseline');
  if (url.pathname === '/health') {
    await pool.query('SELECT 1');
    return send(res, 200, { status: 'ok' });
  }
  const route = req.method === 'GET' && routes.find((r) => r.pattern.test(url.pathname));
  if (!route) return send(res, 404, { error: { code: 404, message: 'Not found' } });
  const captures = route.pattern.exec(url.pathname).slice(1);

  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (!match) return send(res, 401, { error: { code: 401, message: 'Unauthorized' } });
  const tokenHash = createHash('sha256').update(match[1]).digest('hex');
  const tokens = await pool.query(TOKEN_LOOKUP, [tokenHash]);
  if (tokens.rows.length === 0) {
    return send(res, 401, { error: { code: 401, message: 'Unauthorized' } });
  }
  const [sql, params] = route.read(captures, url.searchParams);
  // The caller's id is $2 in every query; a route's further parameters follow it.
  const [first, ...rest] = params;
  const { rows } = await pool.query(sql, [first, tokens.rows[0].user_id, ...rest]);
  if (route.list) return send(res, 200, { items: rows.map(present), count: rows.length });
  if (rows.length === 0) return send(res, 404, { error: { code: 404, message: 'Not found' } });
  send(res, 200, present(rows[0]));
}

/** Handlers still running, client gone or not: shutdown waits for them before ending the pool. */
let inFlight = 0;
const server = http.createServer((req, res) => {
  inFlight++;
  handle(req, res)
    .catch((error) => {
      // Keep failures visible in the bench's non-2xx count and in the log.
      process.stderr.write(`baseline: ${error.stack ?? error}\n`);
      if (!res.headersSent) send(res, 500, { error: { code: 500, message: 'Internal error' } });
    })
    .finally(() => inFlight--);
});
server.keepAliveTimeout = 65_000;

server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`baseline listening on http://127.0.0.1:${server.address().port}\n`);
});

// Stop accepting connections, let handlers still running finish (their clients may be gone
// already: the load generator drops its connections at the end of a run), then close the pool.
// The parent SIGKILLs after 5 s.
function shutdown() {
  server.close();
  server.closeIdleConnections();
  const stop = () =>
    inFlight > 0 ? setTimeout(stop, 20) : pool.end().finally(() => process.exit(0));
  stop();
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
