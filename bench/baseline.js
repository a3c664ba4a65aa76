'use strict';
/**
 * The baseline of `npm run bench`: a bare Express server doing the work of Bindery's cheapest
 * authenticated read, and nothing else. Bearer token → SHA-256 (hex) → the same token lookup
 * Bindery runs → one SELECT of the organization joined with the caller's membership → JSON.
 * Same `pg` pool size as Bindery's default (10). No logging, validation, rate limiting or
 * policy layer: the gap between the two is the cost of the framework around the queries.
 *
 * Env: PORT (default 3100), DATABASE_URL (required), DATABASE_POOL_SIZE (default 10).
 */
const { createHash } = require('node:crypto');
const express = require('express');
const { Pool } = require('pg');

const TOKEN_LOOKUP = `SELECT t.user_id FROM api_tokens t JOIN users u ON u.id = t.user_id
  WHERE t.token_hash = $1 AND NOT u.disabled`;
const ORGANIZATION = `SELECT o.*, m.role FROM organizations o
  JOIN organization_members m ON m.organization_id = o.id AND m.user_id = $2 AND NOT m.disabled
  WHERE o.id = $1`;

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

const app = express();
app.disable('x-powered-by');
app.disable('etag');

/** Handlers still running, client gone or not: shutdown waits for them before ending the pool. */
let inFlight = 0;
const tracked = (handler) => async (req, res, next) => {
  inFlight++;
  try {
    await handler(req, res);
  } catch (error) {
    next(error);
  } finally {
    inFlight--;
  }
};

app.get(
  '/health',
  tracked(async (_req, res) => {
    await pool.query('SELECT 1');
    res.json({ status: 'ok' });
  }),
);

app.get(
  '/v1/orgs/:organizationId',
  tracked(async (req, res) => {
    const match = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '');
    if (!match) return void res.status(401).json({ error: { code: 401, message: 'Unauthorized' } });
    const tokenHash = createHash('sha256').update(match[1]).digest('hex');
    const tokens = await pool.query(TOKEN_LOOKUP, [tokenHash]);
    if (tokens.rows.length === 0)
      return void res.status(401).json({ error: { code: 401, message: 'Unauthorized' } });
    const userId = tokens.rows[0].user_id;
    const organizations = await pool.query(ORGANIZATION, [req.params.organizationId, userId]);
    if (organizations.rows.length === 0)
      return void res.status(404).json({ error: { code: 404, message: 'Not found' } });
    const o = organizations.rows[0];
    res.json({
      object: 'organization',
      id: o.id,
      title: o.title,
      createdAt: o.created_at.toISOString(),
      emailDomains: o.email_domains,
      type: o.type,
      defaultRole: o.default_role,
      sso: o.sso,
      ai: o.ai,
      inviteLinks: o.invite_links,
      mergeRules: o.merge_rules,
      role: o.role,
    });
  }),
);

// Express 5 error handler: keep failures visible in the bench's non-2xx count and in the log.
app.use((error, _req, res, _next) => {
  process.stderr.write(`baseline: ${error.stack ?? error}\n`);
  res.status(500).json({ error: { code: 500, message: 'Internal error' } });
});

const server = app.listen(port, '127.0.0.1', () => {
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
