'use strict';
/* global URL */
/**
 * The ceiling of bench/published.js: a bare `node:http` + `pg` server answering the published
 * URL lookup of a site without sections, with the statement Bindery's lookup runs (the site
 * candidates with their structure, prepared) and a site token signed the same way (HS256,
 * jsonwebtoken, the key derived from SECRET_KEY). No validation, logging, rate limiting, conditions or visitor handling: the gap is what Bindery's
 * framework and its general lookup cost on top of the queries.
 *
 * Env: PORT, DATABASE_URL, SECRET_KEY (the same as Bindery's), DATABASE_POOL_SIZE (default 10).
 */
const http = require('node:http');
const { createHmac } = require('node:crypto');
const { sign } = require('jsonwebtoken');
const { Pool } = require('pg');

const CANDIDATES = `SELECT s.*, o.hostname AS organization_hostname,
       CASE WHEN s.proxy = ANY($2::varchar[]) THEN 1 WHEN s.hostname = $1 THEN 2 ELSE 3 END AS matched_by,
       (SELECT coalesce(json_agg(g), '[]') FROM site_section_groups g
         WHERE g.site_id = s.id) AS structure_groups,
       (SELECT coalesce(json_agg(x), '[]') FROM site_sections x
         WHERE x.site_id = s.id) AS structure_sections,
       (SELECT coalesce(json_agg(ss), '[]') FROM site_spaces ss
          JOIN spaces sp ON sp.id = ss.space_id AND sp.deleted_at IS NULL
         WHERE ss.site_id = s.id) AS structure_live_site_spaces
  FROM sites s JOIN organizations o ON o.id = s.organization_id
 WHERE s.proxy = ANY($2::varchar[]) OR s.hostname = $1
    OR ($5 AND ($4::varchar = s.basename OR $4::varchar = s.id)
        AND ($3::varchar IS NULL OR o.hostname = $3 OR o.id = $3))
 ORDER BY matched_by, s.basename = $4 DESC NULLS LAST, s.published DESC, s.created_at, s.id
 LIMIT 10`;

const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});
const key = createHmac('sha256', process.env.SECRET_KEY).update('bindery:site-api-tokens').digest();

async function lookup(body) {
  const url = new URL(body.url);
  const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const host = url.hostname;
  const proxies = [
    host,
    ...segments.slice(0, 8).map((_, i) => `${host}/${segments.slice(0, i + 1).join('/')}`),
  ];
  const candidates = await pool.query(CANDIDATES, [host, proxies, segments[0], segments[1], true]);
  const site = candidates.rows.find((row) => row.published);
  if (!site) return null;
  await pool.query(
    'SELECT default_site_section_id, default_site_space_id FROM sites WHERE id = $1',
    [site.id],
  );
  await pool.query('SELECT * FROM site_section_groups WHERE site_id = $1', [site.id]);
  await pool.query('SELECT * FROM site_sections WHERE site_id = $1', [site.id]);
  const siteSpaces = (await pool.query('SELECT * FROM site_spaces WHERE site_id = $1', [site.id]))
    .rows;
  const live = await pool.query('SELECT id FROM spaces WHERE id = ANY($1) AND deleted_at IS NULL', [
    siteSpaces.map((siteSpace) => siteSpace.space_id),
  ]);
  const liveIds = new Set(live.rows.map((row) => row.id));
  const visible = siteSpaces
    .filter((siteSpace) => siteSpace.section_id === null && liveIds.has(siteSpace.space_id))
    .sort((a, b) => a.position - b.position);
  const rest = segments.slice(2);
  const named = visible.find((siteSpace) => siteSpace.path === rest[0]);
  const siteSpace = named ?? visible.find((s) => s.id === site.default_site_space_id) ?? visible[0];
  const pageSegments = named ? rest.slice(1) : rest;
  const base = `/${segments.slice(0, 2).join('/')}/`;
  const basePath = named ? `${base}${named.path}/` : base;
  const end = Math.floor(Date.now() / 86_400_000) * 86_400_000 + 300_000;
  const apiToken = sign(
    {
      kind: 'site',
      organization: site.organization_id,
      site: site.id,
      siteSpace: siteSpace.id,
      space: siteSpace.space_id,
      spaces: visible.map((s) => s.space_id),
      exp: Math.floor((end - Date.now() < 3_600_000 ? end + 86_400_000 : end) / 1000),
    },
    key,
    { algorithm: 'HS256', noTimestamp: true },
  );
  return {
    site: site.id,
    siteSpace: siteSpace.id,
    space: siteSpace.space_id,
    organization: site.organization_id,
    pathname: pageSegments.join('/'),
    basePath,
    siteBasePath: base,
    canonicalUrl: `${url.origin}${basePath}${pageSegments.join('/')}`,
    complete: pageSegments.length > 0 || visible.length === 1,
    apiToken,
  };
}

const server = http.createServer((req, res) => {
  const send = (status, value) => {
    const json = JSON.stringify(value);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(json),
    });
    res.end(json);
  };
  if (req.url === '/health') {
    pool.query('SELECT 1').then(
      () => send(200, { status: 'ok' }),
      (error) => send(500, { error: String(error) }),
    );
    return;
  }
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    lookup(JSON.parse(Buffer.concat(chunks).toString('utf8')))
      .then((answer) => (answer ? send(200, answer) : send(404, { error: { code: 404 } })))
      .catch((error) => send(500, { error: String(error) }));
  });
});
server.keepAliveTimeout = 5000;
server.listen(Number(process.env.PORT ?? 3200), '127.0.0.1');
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => server.close(() => pool.end().then(() => process.exit(0))));
}
