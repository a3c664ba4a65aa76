'use strict';
/* global fetch */
/**
 * `node bench/git.js` after `npm run build`: Git import and export of a large space over smart
 * HTTP. Generates a repository in GitBook's Git Sync layout (`.gitbook.yaml`, `SUMMARY.md` with
 * ~20 groups, pages three levels deep, images in `.gitbook/assets/`), serves it with
 * `git http-backend` on 127.0.0.1 (git-server.js), and measures through the API: a full import
 * into an empty space, an export to an empty repository, a re-import of the same commit, an
 * import after a one-line edit in Git, an export with nothing changed, and an export after a
 * one-page edit in Bindery; each with the content objects and revisions it wrote, and whether
 * it made a new revision or commit. See bench/README.md, "Git sync benchmark".
 *
 * Env: DATABASE_URL (PostgreSQL server for a throwaway database; unset = embedded PGlite in
 * this process), GIT_BENCH_PAGES (markdown pages, default 1000), GIT_BENCH_ROUNDS (repetitions
 * of each measure, default 3).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { crc32, deflateSync } = require('node:zlib');
const { Client } = require('pg');
const {
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
  api,
} = require('./lib');
const { git, startGitServer } = require('./git-server');
const { mulberry32, term, capitalize, between, sentence, pageTitle, median } = require('./text');

const PAGES = Math.ceil(positiveNumber('GIT_BENCH_PAGES', 1000));
const ROUNDS = Math.ceil(positiveNumber('GIT_BENCH_ROUNDS', 3));
const GROUPS = 20;
const ASSETS = 50;
const POLL_MS = 50;
/** How long one import or export may take before the bench gives up. */
const OPERATION_TIMEOUT_MS = 15 * 60 * 1000;
const REF = 'refs/heads/main';

async function main() {
  if (PAGES < 2) throw new Error('GIT_BENCH_PAGES must be at least 2');
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const loadAtStart = os.loadavg();

  const server = await startGitServer();
  cleanups.push(() => server.close());
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-bench-git-work-'));
  cleanups.push(() => fs.rmSync(work, { recursive: true, force: true }));
  const started = performance.now();
  const repo = generateRepository(PAGES);
  const sourceUrl = server.createRepository('source');
  writeRepository(work, repo);
  git(work, 'init', '--quiet', '--initial-branch=main');
  git(work, 'add', '--all');
  git(work, 'commit', '--quiet', '-m', 'Documentation');
  git(work, 'push', '--quiet', server.bare('source'), `HEAD:${REF}`);
  const repoStats = {
    pages: repo.pages.length,
    groups: repo.groups,
    assets: repo.assets.length,
    files: repo.files.size,
    bytes: [...repo.files.values()].reduce((sum, data) => sum + Buffer.byteLength(data), 0),
    packBytes: packBytes(server.bare('source')),
  };
  log(
    `Repository: ${repoStats.pages} pages in ${repoStats.groups} groups, ${repoStats.assets} ` +
      `images, ${repoStats.files} files, ${mb(repoStats.bytes)} (${mb(repoStats.packBytes)} ` +
      `packed), generated and pushed in ${s(performance.now() - started)}`,
  );

  const database = process.env.DATABASE_URL
    ? await createPostgresDatabase(process.env.DATABASE_URL)
    : await startEmbeddedDatabase(
        'embedded PGlite (in memory, served from this bench process): every query is serialized ' +
          'through one WASM engine; set DATABASE_URL for a real PostgreSQL run',
      );
  log(`Database: ${database.description}`);
  const bindery = await startBindery(database, 'git', stamp, { OUTBOUND_ALLOW_PRIVATE: 'true' });
  log(`Bindery ready on ${bindery.baseUrl} (log: ${bindery.logFile})`);
  const { token, org } = await createOrganization(bindery.baseUrl, bindery.adminToken, 'git');
  const db = new Client({ connectionString: database.url });
  await db.connect();
  cleanups.push(() => db.end());
  const ctx = { baseUrl: bindery.baseUrl, token, db, server };

  const measures = {};
  const newSpace = async (title) =>
    (
      await api(
        ctx.baseUrl,
        'POST',
        `/v1/orgs/${org.id}/spaces`,
        token,
        { title, empty: true },
        201,
      )
    ).id;

  // 1. Full import into an empty space, each round a new space; the first is used after.
  measures.fullImport = [];
  const spaces = [];
  for (let r = 0; r < ROUNDS; r++) {
    checkInterrupted('importing');
    const spaceId = await newSpace(`Handbook ${r + 1}`);
    spaces.push(spaceId);
    const result = await measured(ctx, spaceId, 'import', { url: sourceUrl, ref: REF });
    const tree = countPages((await pagesOf(ctx, spaceId)).pages);
    result.spacePages = tree;
    if (r === 0) {
      // Did the relative links and images become refs to pages and files?
      const sample = repo.pages.filter((page) => page.hasImage).slice(0, 5);
      result.refsInSample = await refKinds(ctx, spaceId, sample);
    }
    if (tree.document !== repo.pages.length || tree.group !== repo.groups) {
      result.notes.push(
        `space has ${tree.document} document pages and ${tree.group} groups, ` +
          `the repository ${repo.pages.length} and ${repo.groups}`,
      );
    }
    measures.fullImport.push(result);
    report('full import', r, result);
  }
  const spaceId = spaces[0];

  // 2. Re-import of the same commit.
  measures.reimport = [];
  for (let r = 0; r < ROUNDS; r++) {
    checkInterrupted('re-importing');
    const result = await measured(ctx, spaceId, 'import', { url: sourceUrl, ref: REF });
    measures.reimport.push(result);
    report('re-import, same commit', r, result);
  }

  // 3. One-line edit of one page in Git, then import.
  measures.gitEditImport = [];
  for (let r = 0; r < ROUNDS; r++) {
    checkInterrupted('editing in Git');
    const page = repo.leaves[(r * 7919 + 11) % repo.leaves.length];
    const marker = `Edited in Git, round ${r + 1}.`;
    editLine(work, page, marker);
    git(work, 'commit', '--quiet', '-am', `Edit ${page.path}`);
    git(work, 'push', '--quiet', server.bare('source'), `HEAD:${REF}`);
    const result = await measured(ctx, spaceId, 'import', { url: sourceUrl, ref: REF });
    result.page = page.path;
    const markdown = await pageMarkdownIn(ctx, spaceId, page.title);
    result.editApplied = markdown !== undefined && markdown.includes(marker);
    if (!result.editApplied) result.notes.push(`the edit of ${page.path} is not in the space`);
    measures.gitEditImport.push(result);
    report('one-line Git edit, import', r, result);
  }

  // 4. Export to a new empty repository, each round another.
  measures.exportEmpty = [];
  let target;
  for (let r = 0; r < ROUNDS; r++) {
    checkInterrupted('exporting');
    const name = `export-${r + 1}`;
    const url = server.createRepository(name);
    const result = await measured(ctx, spaceId, 'export', {
      url,
      ref: REF,
      commitMessage: 'Export from Bindery',
    });
    result.files = lines(server.git(name, 'ls-tree', '-r', '--name-only', REF)).length;
    result.againstSource = compareTrees(server, 'source', name);
    result.againstSource.exampleDiffs = exampleDiffs(work, server.bare(name), result.againstSource);
    measures.exportEmpty.push(result);
    report('export to an empty repository', r, result);
    target = { name, url };
  }

  // 5. Export with nothing changed since the last export.
  measures.exportUnchanged = [];
  for (let r = 0; r < ROUNDS; r++) {
    checkInterrupted('exporting');
    const before = headOf(server, target.name);
    const result = await measured(ctx, spaceId, 'export', {
      url: target.url,
      ref: REF,
      commitMessage: `Export, no change ${r + 1}`,
    });
    Object.assign(result, commitOutcome(server, target.name, before));
    measures.exportUnchanged.push(result);
    report('export, no change', r, result);
  }

  // 6. One-page edit in Bindery (a change request merged), then export.
  measures.apiEditExport = [];
  for (let r = 0; r < ROUNDS; r++) {
    checkInterrupted('editing in Bindery');
    const page = repo.leaves[(r * 7919 + 503) % repo.leaves.length];
    const edit = await editThroughApi(
      ctx,
      spaceId,
      page.title,
      ` Edited in Bindery, round ${r + 1}.`,
    );
    const before = headOf(server, target.name);
    const result = await measured(ctx, spaceId, 'export', {
      url: target.url,
      ref: REF,
      commitMessage: `Export after editing ${page.title}`,
    });
    Object.assign(result, commitOutcome(server, target.name, before));
    result.page = page.path;
    result.edit = edit;
    measures.apiEditExport.push(result);
    report('one-page API edit, export', r, result);
  }

  const result = {
    date: new Date().toISOString(),
    database: { kind: database.kind, description: database.description },
    node: process.version,
    git: git(process.cwd(), '--version').trim(),
    cpus: os.cpus().length,
    loadAverage: { atStart: loadAtStart, atEnd: os.loadavg() },
    settings: { pages: PAGES, rounds: ROUNDS, groups: GROUPS, assets: ASSETS, pollMs: POLL_MS },
    repository: repoStats,
    measures,
    summary: Object.fromEntries(Object.entries(measures).map(([k, v]) => [k, summarize(v)])),
    logs: { bindery: bindery.logFile },
  };
  printReport(result);
  const resultsFile = path.join(RESULTS_DIR, `${stamp}-git.json`);
  fs.writeFileSync(resultsFile, `${JSON.stringify(result, null, 2)}\n`);
  log(`\nResults: ${resultsFile}`);
}

// ---------------------------------------------------------------- the repository

/**
 * A GitBook Git Sync repository of `total` markdown pages: a root README.md, then `GROUPS`
 * groups (`## Title` in SUMMARY.md, a folder each) holding pages three levels deep; each page
 * a title, sometimes a description in frontmatter, paragraphs, a list, a code block, a relative
 * link to another page, and for some an image of `.gitbook/assets/`. Deterministic.
 */
function generateRepository(total) {
  const rng = mulberry32(0x61b5);
  const titles = new Set();
  const uniqueTitle = (depth) => {
    for (;;) {
      const title = capitalize(pageTitle(rng, depth));
      if (!titles.has(title)) {
        titles.add(title);
        return title;
      }
    }
  };
  const folders = new Map();
  const uniqueSlug = (dir, title) => {
    const used = folders.get(dir) ?? new Set(['readme', 'summary']);
    folders.set(dir, used);
    const base = slugify(title);
    let slug = base;
    for (let n = 2; used.has(slug); n++) slug = `${base}-${n}`;
    used.add(slug);
    return slug;
  };

  const pages = [];
  const intro = { title: 'Introduction', path: 'README.md', children: [], depth: 0 };
  pages.push(intro);
  const groups = [];
  const documentPages = total - 1;
  const groupCount = Math.min(GROUPS, documentPages);
  for (let g = 0; g < groupCount; g++) {
    const count = Math.floor(documentPages / groupCount) + (g < documentPages % groupCount ? 1 : 0);
    const title = uniqueTitle(1).replace(/ guide$/, '');
    const group = { title, dir: uniqueSlug('', title), pages: [] };
    groups.push(group);
    // Top-level pages, three sub-pages each at most, then leaves spread over those.
    const tops = Math.max(1, Math.ceil(count / 16));
    const mids = Math.min(count - tops, tops * 3);
    const leaves = count - tops - mids;
    const top = Array.from({ length: tops }, () => ({ title: uniqueTitle(0), children: [] }));
    const mid = Array.from({ length: mids }, (_, i) => {
      const page = { title: uniqueTitle(1), children: [] };
      top[i % tops].children.push(page);
      return page;
    });
    for (let i = 0; i < leaves; i++) {
      mid[i % mids].children.push({ title: uniqueTitle(2), children: [] });
    }
    const place = (list, dir, depth) => {
      for (const page of list) {
        const slug = uniqueSlug(dir, page.title);
        page.depth = depth;
        if (page.children.length > 0) {
          page.path = `${dir}/${slug}/README.md`;
          pages.push(page);
          place(page.children, `${dir}/${slug}`, depth + 1);
        } else {
          page.path = `${dir}/${slug}.md`;
          pages.push(page);
        }
      }
    };
    place(top, group.dir, 1);
    group.pages = top;
  }

  const assets = Array.from({ length: ASSETS }, (_, i) => ({
    name: `${['diagram', 'screenshot', 'architecture', 'flow'][i % 4]}-${String(i + 1).padStart(2, '0')}.png`,
    data: noisePng(mulberry32(0xa55e7 + i), between(rng, 80, 120), between(rng, 60, 90)),
  }));
  // Every asset is shown by at least one page: about one page in ten has an image.
  const imageEvery = Math.max(1, Math.floor(pages.length / Math.max(ASSETS, pages.length / 10)));

  const files = new Map();
  files.set(
    '.gitbook.yaml',
    'root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n',
  );
  const summary = ['# Table of contents', '', `* [${intro.title}](${intro.path})`];
  const item = (page, indent) => {
    summary.push(`${'  '.repeat(indent)}* [${page.title}](${page.path})`);
    for (const child of page.children) item(child, indent + 1);
  };
  for (const group of groups) {
    summary.push('', `## ${group.title}`, '');
    for (const page of group.pages) item(page, 0);
  }
  files.set('SUMMARY.md', `${summary.join('\n')}\n`);
  for (const asset of assets) files.set(`.gitbook/assets/${asset.name}`, asset.data);

  pages.forEach((page, index) => {
    const other = pages[(index * 37 + 101) % pages.length];
    const target = other === page ? pages[(index + 1) % pages.length] : other;
    const image = index % imageEvery === 0 ? assets[(index / imageEvery) % ASSETS] : undefined;
    const { text, editLine } = pageMarkdown(rng, page, target, image);
    page.editLine = editLine;
    page.hasImage = image !== undefined;
    files.set(page.path, text);
  });
  return {
    pages,
    leaves: pages.filter((page) => page.children.length === 0 && page !== intro),
    groups: groups.length,
    assets,
    files,
  };
}

function pageMarkdown(rng, page, target, image) {
  const lines = [];
  if (rng() < 0.3) lines.push('---', `description: ${sentence(rng)}`, '---', '');
  lines.push(`# ${page.title}`, '');
  const paragraph = () => Array.from({ length: between(rng, 2, 4) }, () => sentence(rng)).join(' ');
  const editLine = lines.length;
  lines.push(paragraph(), '');
  lines.push(`${sentence(rng)} See [${target.title}](${relative(page.path, target.path)}).`, '');
  lines.push('## Steps', '');
  for (let i = between(rng, 3, 5); i > 0; i--)
    lines.push(`* ${capitalize(term(rng))} ${term(rng)}`);
  lines.push('', paragraph(), '');
  const language = ['bash', 'yaml', 'javascript', 'json'][Math.floor(rng() * 4)];
  lines.push(`\`\`\`${language}`);
  for (let i = between(rng, 3, 8); i > 0; i--) {
    lines.push(`${term(rng).replace(/\W/g, '_')}: ${between(rng, 1, 9999)}`);
  }
  lines.push('```', '');
  if (image) {
    lines.push(
      `![${capitalize(term(rng))} ${term(rng)}](${relative(page.path, `.gitbook/assets/${image.name}`)})`,
      '',
    );
  }
  lines.push(paragraph(), '');
  return { text: lines.join('\n'), editLine };
}

function writeRepository(dir, repo) {
  for (const [file, data] of repo.files) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), data);
  }
}

/** Appends `marker` to the first paragraph of `page` in the work tree: a one-line edit. */
function editLine(dir, page, marker) {
  const file = path.join(dir, page.path);
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  lines[page.editLine] = `${lines[page.editLine]} ${marker}`;
  fs.writeFileSync(file, lines.join('\n'));
}

const relative = (from, to) => path.posix.relative(path.posix.dirname(from), to);

function slugify(title) {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A `width`×`height` PNG of noise (so it does not compress: a few tens of KB like a screenshot). */
function noisePng(rng, width, height) {
  const chunk = (type, body) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(body.length);
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), body]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let i = 0; i < raw.length; i++) raw[i] = i % (width * 3 + 1) === 0 ? 0 : (rng() * 256) | 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function packBytes(bare) {
  const out = git(bare, 'count-objects', '-v');
  const kb = (key) => Number(new RegExp(`^${key}: (\\d+)`, 'm').exec(out)?.[1] ?? 0);
  return (kb('size') + kb('size-pack')) * 1024;
}

// ---------------------------------------------------------------- Bindery

async function request(ctx, method, pathname, body) {
  const response = await fetch(`${ctx.baseUrl}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${ctx.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function gitInfo(ctx, spaceId) {
  const { status, body } = await request(ctx, 'GET', `/v1/spaces/${spaceId}/git/info`);
  if (status === 404) return undefined;
  if (status !== 200) throw new Error(`git/info: HTTP ${status}: ${JSON.stringify(body)}`);
  return body;
}

const revisionOf = async (ctx, spaceId) =>
  (await api(ctx.baseUrl, 'GET', `/v1/spaces/${spaceId}`, ctx.token, undefined, 200)).revision;

async function counts(ctx, spaceId) {
  const { rows } = await ctx.db.query(
    `SELECT (SELECT count(*) FROM content_objects) AS objects,
            (SELECT count(*) FROM revisions WHERE space_id = $1) AS revisions`,
    [spaceId],
  );
  return { objects: Number(rows[0].objects), revisions: Number(rows[0].revisions) };
}

/**
 * Runs an import or export (`kind`) of `spaceId` and waits for it, polling git/info every
 * POLL_MS: the time from the request to the status `complete` (and to the first poll that no
 * longer sees it `pending`, as the job waits for a worker first), the server's own
 * requestedAt → completedAt, the content objects and the space's revisions it added, whether
 * the space's revision moved, what the Git server received and sent. Fails unless complete.
 */
async function measured(ctx, spaceId, kind, body) {
  const previous = (await gitInfo(ctx, spaceId))?.lastOperation?.requestedAt;
  const revisionBefore = await revisionOf(ctx, spaceId);
  const before = await counts(ctx, spaceId);
  ctx.server.resetStats();
  const started = performance.now();
  const posted = await request(ctx, 'POST', `/v1/spaces/${spaceId}/git/${kind}`, body);
  if (posted.status !== 204) {
    throw new Error(`${kind}: HTTP ${posted.status}: ${JSON.stringify(posted.body)}`);
  }
  let operation;
  let startedMs;
  for (;;) {
    const info = await gitInfo(ctx, spaceId);
    const last = info?.lastOperation;
    const elapsed = performance.now() - started;
    if (last && last.requestedAt !== previous && last.kind === kind) {
      if (startedMs === undefined && last.status !== 'pending') startedMs = elapsed;
      if (!['pending', 'running'].includes(last.status)) {
        operation = last;
        break;
      }
    }
    if (elapsed > OPERATION_TIMEOUT_MS) {
      throw new Error(`${kind} still ${last?.status ?? 'not shown'} after ${s(elapsed)}`);
    }
    checkInterrupted(`waiting for the ${kind}`);
    await sleep(POLL_MS);
  }
  const ms = performance.now() - started;
  const gitStats = { ...ctx.server.stats };
  if (operation.status !== 'complete') {
    throw new Error(
      `${kind}: ${operation.status}${operation.error ? `: ${operation.error}` : ''} ` +
        `(${JSON.stringify(operation)})`,
    );
  }
  const after = await counts(ctx, spaceId);
  const revisionAfter = await revisionOf(ctx, spaceId);
  return {
    ms,
    waitMs: startedMs,
    serverMs: Date.parse(operation.completedAt) - Date.parse(operation.requestedAt),
    commit: operation.commit,
    warnings: operation.warnings ?? [],
    objectsWritten: after.objects - before.objects,
    revisionsMade: after.revisions - before.revisions,
    newRevision: revisionAfter !== revisionBefore,
    gitServer: gitStats,
    notes: [],
  };
}

async function pagesOf(ctx, spaceId) {
  return api(ctx.baseUrl, 'GET', `/v1/spaces/${spaceId}/content/pages`, ctx.token, undefined, 200);
}

function countPages(pages, tally = { document: 0, group: 0, link: 0 }) {
  for (const page of pages) {
    tally[page.type] = (tally[page.type] ?? 0) + 1;
    countPages(page.pages ?? [], tally);
  }
  return tally;
}

function findPage(pages, title) {
  for (const page of pages) {
    if (page.title === title) return page;
    const found = findPage(page.pages ?? [], title);
    if (found) return found;
  }
  return undefined;
}

async function pageMarkdownIn(ctx, spaceId, title) {
  const page = findPage((await pagesOf(ctx, spaceId)).pages, title);
  if (!page) return undefined;
  const read = await api(
    ctx.baseUrl,
    'GET',
    `/v1/spaces/${spaceId}/content/page/${page.id}?format=markdown`,
    ctx.token,
    undefined,
    200,
  );
  return read.markdown;
}

/** The kinds of the refs of links and images in the documents of `pages` (found by title). */
async function refKinds(ctx, spaceId, pages) {
  const tree = (await pagesOf(ctx, spaceId)).pages;
  const kinds = { pages: pages.length };
  const walk = (node) => {
    const ref = node.data?.ref;
    if (ref && (node.type === 'link' || node.type === 'image')) {
      const key = `${node.type}:${ref.kind}`;
      kinds[key] = (kinds[key] ?? 0) + 1;
    }
    for (const child of node.nodes ?? []) walk(child);
  };
  for (const { title } of pages) {
    const page = findPage(tree, title);
    if (!page) continue;
    const read = await api(
      ctx.baseUrl,
      'GET',
      `/v1/spaces/${spaceId}/content/page/${page.id}`,
      ctx.token,
      undefined,
      200,
    );
    walk(read.document);
  }
  return kinds;
}

/**
 * Appends `text` to the first paragraph of the page titled `title` through the API: its
 * document read, the paragraph's last text leaf extended, written with `update_page` in a new
 * change request, merged. Answers the time it took and the objects it wrote.
 */
async function editThroughApi(ctx, spaceId, title, text) {
  const started = performance.now();
  const before = await counts(ctx, spaceId);
  const page = findPage((await pagesOf(ctx, spaceId)).pages, title);
  if (!page) throw new Error(`no page titled ${title}`);
  const read = await api(
    ctx.baseUrl,
    'GET',
    `/v1/spaces/${spaceId}/content/page/${page.id}`,
    ctx.token,
    undefined,
    200,
  );
  const document = read.document;
  const paragraph = document.nodes.find((block) => block.type === 'paragraph');
  const texts = (paragraph?.nodes ?? []).filter((node) => node.object === 'text');
  const leaves = texts[texts.length - 1]?.leaves;
  if (!leaves?.length) throw new Error(`${title}: no paragraph text to edit`);
  leaves[leaves.length - 1].text += text;
  const base = `/v1/spaces/${spaceId}/change-requests`;
  const cr = await api(ctx.baseUrl, 'POST', base, ctx.token, { subject: `Edit ${title}` }, 201);
  await api(
    ctx.baseUrl,
    'POST',
    `${base}/${cr.id}/content`,
    ctx.token,
    { changes: [{ operation: 'update_page', page: page.id, document: { document } }] },
    200,
  );
  const merged = await api(ctx.baseUrl, 'POST', `${base}/${cr.id}/merge`, ctx.token, {}, 200);
  if (merged.result !== 'merge') throw new Error(`merge of ${title}: ${JSON.stringify(merged)}`);
  const after = await counts(ctx, spaceId);
  return {
    pageId: page.id,
    ms: performance.now() - started,
    objectsWritten: after.objects - before.objects,
    revisionsMade: after.revisions - before.revisions,
  };
}

// ---------------------------------------------------------------- Git

const lines = (text) => text.split('\n').filter(Boolean);

function headOf(server, name) {
  try {
    return server.git(name, 'rev-parse', '--verify', '--quiet', REF).trim();
  } catch {
    return undefined;
  }
}

/**
 * The files of `exported`'s branch against `source`'s: the same path with the same blob, the
 * same path with another blob (a few named), and paths only on one side.
 */
function compareTrees(server, source, exported) {
  const tree = (name) =>
    new Map(
      lines(server.git(name, 'ls-tree', '-r', REF)).map((line) => {
        const tab = line.indexOf('\t');
        return [line.slice(tab + 1), line.slice(0, tab).split(' ')[2]];
      }),
    );
  const from = tree(source);
  const to = tree(exported);
  const changed = [...to].filter(([file, oid]) => from.has(file) && from.get(file) !== oid);
  return {
    identical: [...to].filter(([file, oid]) => from.get(file) === oid).length,
    changed: changed.length,
    changedExamples: changed.slice(0, 5).map(([file]) => file),
    onlyInExport: [...to.keys()].filter((file) => !from.has(file)).length,
    onlyInSource: [...from.keys()].filter((file) => !to.has(file)).length,
  };
}

/**
 * What the export changed in `.gitbook.yaml` and in the first changed markdown file, against
 * the work clone's HEAD (the imported commit): `git diff`, each cut at 4,000 characters.
 */
function exampleDiffs(work, exportedBare, comparison) {
  if (comparison.changed === 0) return [];
  git(work, 'fetch', '--quiet', exportedBare, `+${REF}:refs/bench/exported`);
  const files = [
    ...new Set([
      ...comparison.changedExamples.filter((file) => file === '.gitbook.yaml'),
      ...comparison.changedExamples.filter((file) => file.endsWith('.md')).slice(0, 1),
    ]),
  ];
  return files.map((file) => ({
    file,
    diff: git(work, 'diff', 'HEAD', 'refs/bench/exported', '--', file).slice(0, 4000),
  }));
}

/** Whether `name`'s branch moved from `before`, and the files the new commits changed. */
function commitOutcome(server, name, before) {
  const after = headOf(server, name);
  if (after === before) return { newCommit: false, filesChanged: 0 };
  const files = lines(server.git(name, 'diff', '--name-only', before, after));
  const commits = lines(server.git(name, 'rev-list', `${before}..${after}`)).length;
  return { newCommit: true, commits, filesChanged: files.length, changedFiles: files };
}

// ---------------------------------------------------------------- report

function summarize(results) {
  const times = results.map((r) => r.ms);
  const waits = results.map((r) => r.waitMs).filter((v) => v !== undefined);
  const summary = {
    rounds: results.length,
    medianMs: median(times),
    minMs: Math.min(...times),
    medianServerMs: median(results.map((r) => r.serverMs)),
    medianWaitMs: waits.length ? median(waits) : undefined,
    fetchedBytes: results.map((r) => r.gitServer.bytesOut),
    pushedBytes: results.map((r) => r.gitServer.bytesIn),
    objectsWritten: results.map((r) => r.objectsWritten),
    revisionsMade: results.map((r) => r.revisionsMade),
    newRevision: results.map((r) => r.newRevision),
    warnings: [...new Set(results.flatMap((r) => r.warnings))],
  };
  if (results[0].newCommit !== undefined) {
    summary.newCommit = results.map((r) => r.newCommit);
    summary.filesChanged = results.map((r) => r.filesChanged);
  }
  if (results[0].files !== undefined) summary.files = results.map((r) => r.files);
  return summary;
}

function report(name, round, result) {
  const extra = [
    `${result.objectsWritten} objects`,
    `${result.revisionsMade} revisions`,
    result.newRevision ? 'new revision' : 'same revision',
    ...(result.newCommit === undefined
      ? []
      : [result.newCommit ? `new commit, ${result.filesChanged} files changed` : 'no new commit']),
    ...(result.files === undefined ? [] : [`${result.files} files`]),
    ...(result.edit ? [`edit ${ms(result.edit.ms)}, ${result.edit.objectsWritten} objects`] : []),
    ...(result.warnings.length ? [`${result.warnings.length} warnings`] : []),
    ...result.notes,
  ];
  log(`  ${name} ${round + 1}/${ROUNDS}: ${s(result.ms)} (${extra.join('; ')})`);
}

const LABELS = {
  fullImport: 'full import, empty space',
  reimport: 're-import, same commit',
  gitEditImport: 'one-line Git edit, import',
  exportEmpty: 'export to an empty repository',
  exportUnchanged: 'export, no change',
  apiEditExport: 'one-page API edit, export',
};

function printReport(result) {
  const { repository: repo } = result;
  log(
    `\nGit sync: ${repo.pages} pages, ${repo.groups} groups, ${repo.assets} images ` +
      `(${repo.files} files, ${mb(repo.bytes)}); ${result.database.kind}; ${result.cpus} CPUs, ` +
      `load ${result.loadAverage.atStart[0].toFixed(1)} → ${result.loadAverage.atEnd[0].toFixed(1)}; ` +
      `${ROUNDS} rounds each:\n`,
  );
  const header = [
    'measure'.padEnd(30),
    'median'.padStart(8),
    'min'.padStart(8),
    'queued'.padStart(8),
    'fetched'.padStart(9),
    'pushed'.padStart(9),
    '  objects written',
    '  revisions',
    '  new rev.',
    '  new commit (files)',
  ];
  log(header.join(''));
  const join = (values) => (new Set(values).size === 1 ? String(values[0]) : values.join('/'));
  const yesNo = (values) => join(values.map((v) => (v ? 'yes' : 'no')));
  for (const [key, label] of Object.entries(LABELS)) {
    const sum = result.summary[key];
    const commit =
      sum.newCommit === undefined
        ? sum.files
          ? `(${join(sum.files)} files)`
          : ''
        : `${yesNo(sum.newCommit)} (${join(sum.filesChanged)})`;
    log(
      [
        label.padEnd(30),
        s(sum.medianMs).padStart(8),
        s(sum.minMs).padStart(8),
        (sum.medianWaitMs === undefined ? '-' : s(sum.medianWaitMs)).padStart(8),
        size(median(sum.fetchedBytes)).padStart(9),
        size(median(sum.pushedBytes)).padStart(9),
        `  ${join(sum.objectsWritten)}`.padEnd(17),
        `  ${join(sum.revisionsMade)}`.padEnd(11),
        `  ${yesNo(sum.newRevision)}`.padEnd(10),
        `  ${commit}`,
      ].join(''),
    );
  }
  const edits = result.measures.apiEditExport.map((r) => r.edit);
  log(
    `\nThe API edit before each last export (change request, update_page, merge): median ` +
      `${ms(median(edits.map((e) => e.ms)))}, ${join(edits.map((e) => e.objectsWritten))} objects.`,
  );
  const against = result.measures.exportEmpty[result.measures.exportEmpty.length - 1].againstSource;
  log(
    `The last export to an empty repository against the imported repository: ` +
      `${against.identical} files identical, ${against.changed} changed` +
      `${against.changed ? ` (e.g. ${against.changedExamples.join(', ')})` : ''}, ` +
      `${against.onlyInExport} only in the export, ${against.onlyInSource} only in the source.`,
  );
  log(
    `Refs of the links and images of ${result.measures.fullImport[0].refsInSample.pages} ` +
      `imported pages with an image: ${JSON.stringify(result.measures.fullImport[0].refsInSample)}.`,
  );
  const applied = result.measures.gitEditImport.map((r) => r.editApplied);
  log(`Git edits found in the space after their import: ${yesNo(applied)}.`);
  const warnings = [...new Set(Object.values(result.summary).flatMap((sum) => sum.warnings))];
  if (warnings.length) {
    log(`Warnings of the operations (${warnings.length}):`);
    for (const warning of warnings.slice(0, 10)) log(`  ${warning}`);
  }
  const notes = Object.values(result.measures).flatMap((list) => list.flatMap((r) => r.notes));
  for (const note of [...new Set(notes)]) log(`Note: ${note}`);
  log(
    '\nTimes are from the request to the first poll (every 50 ms) seeing it complete; ' +
      '"queued" until a poll saw it no longer pending (the job waits up to 1 s for a worker); ' +
      'fetched and pushed: bytes the Git server sent and received (medians). Objects: rows ' +
      'added to content_objects; revisions: rows added to revisions for the space.',
  );
}

const ms = (value) => `${value.toFixed(1)} ms`;
const s = (value) => `${(value / 1000).toFixed(2)} s`;
const mb = (value) => `${(value / 1024 / 1024).toFixed(1)} MB`;
const size = (value) =>
  value >= 1024 * 1024
    ? mb(value)
    : value >= 1024
      ? `${(value / 1024).toFixed(1)} KB`
      : `${value} B`;

runMain(main);
