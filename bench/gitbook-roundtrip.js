'use strict';
/**
 * GitBook's Markdown, read and written back: for every space of every repository in a folder,
 * Bindery's own Git import path runs in process (the layout read, markdown → document, the
 * relative refs the importer resolves) and then the export's render of each page file and of
 * SUMMARY.md; each rendered file is compared with the file it came from. See bench/README.md,
 * "GitBook round-trip benchmark".
 *
 *   npm run build && node bench/gitbook-roundtrip.js /work/corpus
 *
 * Reports go to bench/results/gitbook-roundtrip/<time>/ (report.md, report.json, and a diff
 * per differing file under diffs/).
 */
const { execFileSync } = require('node:child_process');
const {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} = require('node:fs');
const { join, posix, relative, resolve } = require('node:path');
const { structuredPatch } = require('diff');

// BINDERY_DIST measures another build (an earlier commit's, to compare).
const DIST = resolve(process.env.BINDERY_DIST ?? join(__dirname, '../dist/src'));
const need = (path) => {
  const full = join(DIST, path);
  if (!existsSync(`${full}.js`)) {
    console.error(`${full}.js is missing: run npm run build first.`);
    process.exit(2);
  }
  return require(full);
};
const { markdownToDocument, documentToMarkdown } = need('content-engine/documents/markdown');
const { readLayout, readLayoutConfig } = need('git/layout/layout-reader');
const { renderSummary } = need('git/layout/layout-writer');
const { layoutPageOf, renderPageFile, summaryPages } = need('git/sync/page-files');
const { resolveRelativeRefs, refToRelativeUrl } = need('git/jobs/ref-rewrite');
const { assignSlugs } = need('content-engine/tree/write-tree');
const { splitFrontmatter } = need('content-engine/documents/frontmatter');
// Builds from before the kept markdown (markdown-source.ts) write every page anew.
const { withoutMarkdownSource } = existsSync(
  join(DIST, 'content-engine/documents/markdown-source.js'),
)
  ? need('content-engine/documents/markdown-source')
  : { withoutMarkdownSource: (document) => document };

// ---------------------------------------------------------------------------------------------
// Arguments

function parseArgs(argv) {
  const options = { corpus: process.env.GITBOOK_CORPUS, out: undefined, only: [], quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--out') options.out = argv[++i];
    else if (arg === '--repo') options.only.push(argv[++i]);
    else if (arg === '--quiet') options.quiet = true;
    else if (arg === '--help' || arg === '-h') {
      console.log(
        'node bench/gitbook-roundtrip.js <folder of repositories> [--repo <name>]… [--out <dir>] [--quiet]\n' +
          '(the folder may also be given as GITBOOK_CORPUS)',
      );
      process.exit(0);
    } else options.corpus = arg;
  }
  if (!options.corpus) {
    console.error(
      'Usage: node bench/gitbook-roundtrip.js <folder of repositories> (or GITBOOK_CORPUS)',
    );
    process.exit(2);
  }
  options.corpus = resolve(options.corpus);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  options.out = resolve(options.out ?? join(__dirname, 'results', 'gitbook-roundtrip', stamp));
  return options;
}

// ---------------------------------------------------------------------------------------------
// Reading a repository: from its working tree, or, when that holds no space (a repository that
// left GitBook), from the last commit that had one.

function git(dir, args, options = {}) {
  return execFileSync('git', ['-c', 'core.quotepath=off', ...args], {
    cwd: dir,
    maxBuffer: 1 << 30,
    ...options,
  });
}

function isGitRepository(dir) {
  return existsSync(join(dir, '.git'));
}

/** The files of a working tree (paths relative to `dir`), without .git and node_modules. */
function workingTreeFiles(dir) {
  const files = [];
  const walk = (rel) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (entry.name === '.git' || entry.name === 'node_modules') continue;
        walk(path);
      } else if (entry.isFile()) files.push(path);
    }
  };
  walk('');
  return files;
}

function commitFiles(dir, rev) {
  return git(dir, ['ls-tree', '-r', '-z', '--name-only', rev])
    .toString('utf8')
    .split('\0')
    .filter(Boolean);
}

/** A source of files: its paths, and the bytes of one (markdown and .gitbook.yaml only). */
function openSource(dir) {
  const working = workingTreeFiles(dir);
  const spaces = findSpaces(working);
  if (spaces.configs.length + spaces.summaries.length > 0 || !isGitRepository(dir)) {
    return {
      rev: undefined,
      paths: working,
      spaces,
      read: (path) => readFileSync(join(dir, path)),
    };
  }
  // The commit before the one that removed the last SUMMARY.md or .gitbook.yaml.
  const removed = git(dir, [
    'log',
    '-1',
    '--diff-filter=D',
    '--format=%H',
    '--',
    'SUMMARY.md',
    '*/SUMMARY.md',
    '.gitbook.yaml',
    '*/.gitbook.yaml',
  ])
    .toString()
    .trim();
  if (!removed) return { rev: undefined, paths: working, spaces, read: () => Buffer.alloc(0) };
  const rev = git(dir, ['rev-parse', `${removed}~1`])
    .toString()
    .trim();
  const paths = commitFiles(dir, rev);
  return {
    rev,
    paths,
    spaces: findSpaces(paths),
    read: (path) => git(dir, ['show', `${rev}:${path}`]),
  };
}

/**
 * The spaces of a repository: each folder holding a `.gitbook.yaml`, and each folder holding a
 * SUMMARY.md that no `.gitbook.yaml` names as its summary.
 */
function findSpaces(paths) {
  const configs = paths.filter((path) => posix.basename(path) === '.gitbook.yaml');
  const dirOf = (path) => (posix.dirname(path) === '.' ? '' : posix.dirname(path));
  const spaces = configs.map(dirOf);
  const summaries = paths.filter(
    (path) => posix.basename(path) === 'SUMMARY.md' && !path.split('/').includes('node_modules'),
  );
  return { configs, summaries, spaces, dirOf };
}

/** Resolves the spaces once a reader is available (the summary a .gitbook.yaml names). */
function resolveSpaces(source) {
  const { configs, summaries, spaces, dirOf } = source.spaces;
  const claimed = new Set();
  for (const config of configs) {
    const dir = dirOf(config);
    const layout = readLayoutConfig(source.read(config));
    claimed.add(posix.join(dir, layout.root, layout.summary));
  }
  const all = [...spaces];
  for (const summary of summaries) {
    if (!claimed.has(summary)) all.push(dirOf(summary));
  }
  return [...new Set(all)].sort();
}

/**
 * Who wrote each file's bytes last: the subject of the last commit that changed it (up to
 * `rev`). A commit that only moved a file (an exact rename, as GitBook's Git Sync makes when a
 * page moves) did not write it: its author is looked for under the old path.
 */
function lastSubjects(dir, rev) {
  const subjects = new Map();
  if (!isGitRepository(dir)) return subjects;
  const log = git(dir, [
    'log',
    '-M100%',
    '--format=%x01%s',
    '--name-status',
    ...(rev ? [rev] : []),
  ]).toString('utf8');
  /** Path in older commits → the path it has at `rev`. */
  const looking = new Map();
  const seen = new Set();
  for (const entry of log.split('\x01')) {
    const [subject, ...lines] = entry.split('\n');
    for (const line of lines) {
      const [status, ...paths] = line.split('\t');
      if (!status) continue;
      const path = paths[paths.length - 1];
      const current = looking.has(path) ? looking.get(path) : seen.has(path) ? undefined : path;
      if (current === undefined) continue;
      looking.delete(path);
      seen.add(path);
      if (status === 'R100') {
        looking.set(paths[0], current);
        continue;
      }
      if (!subjects.has(current)) subjects.set(current, subject);
    }
  }
  return subjects;
}

/** `gitbook`: GitBook's Git Sync (GITBOOK-n); `legacy`: its older one (GitBook: …); `other`. */
function authorGroup(subject) {
  if (subject === undefined) return 'other';
  if (/^GITBOOK-\d+/.test(subject)) return 'gitbook';
  if (/^GitBook: /.test(subject)) return 'legacy';
  return 'other';
}

// ---------------------------------------------------------------------------------------------
// The import and export path, as src/git/jobs/git-importer.ts runs it

let ids = 0;
const newId = () => `id${(++ids).toString(36)}`;

function isLayoutFile(path) {
  return (
    /\.md$/i.test(path) || /(^|\/)\.gitbook\.yaml$/.test(path) || path.includes('.gitbook/assets/')
  );
}

async function roundTripSpace(source, spaceDir, nestedSpaces) {
  const prefix = spaceDir === '' ? '' : `${spaceDir}/`;
  const tree = new Map();
  for (const path of source.paths) {
    if (!path.startsWith(prefix)) continue;
    const rel = path.slice(prefix.length);
    if (!isLayoutFile(rel)) continue;
    if (nestedSpaces.some((nested) => path.startsWith(`${nested}/`))) continue;
    // Assets are only paths to the layout; their bytes are not needed.
    tree.set(rel, rel.includes('.gitbook/assets/') ? Buffer.alloc(0) : source.read(path));
  }
  const config = readLayoutConfig(tree.get('.gitbook.yaml'));
  const rootPrefix = config.root === '' ? '' : `${config.root}/`;
  const layout = await readLayout(tree, newId);

  const pageAt = new Map();
  const paths = { pages: new Map(), files: new Map() };
  const index = (pages) =>
    pages.forEach((page) => {
      if (page.path) {
        pageAt.set(page.path, page.id);
        paths.pages.set(page.id, page.path);
      }
      index(page.pages);
    });
  index(layout.pages);
  const fileAt = new Map(layout.files.map((file) => [file.path, file.id]));
  for (const file of layout.files) paths.files.set(file.id, file.path);

  const renders = [];
  const toTree = async (page) => {
    const meta = {
      title: page.title,
      ...(page.slug ? { slug: page.slug } : {}),
      ...page.meta,
      ...(page.type === 'link'
        ? { target: { kind: 'url', url: page.href ?? '' }, href: page.href ?? '' }
        : {}),
      ...(page.path
        ? { git: { oid: '', path: posix.join(spaceDir, config.root, page.path) } }
        : {}),
    };
    const node = { id: page.id, type: page.type, meta, document: null, pages: [] };
    let document;
    let error;
    if (page.type === 'document' && page.markdown !== undefined && page.path) {
      try {
        document = resolveRelativeRefs(
          await markdownToDocument(page.markdown, { keepSource: true }),
          page.path,
          pageAt,
          fileAt,
        );
      } catch (e) {
        error = e;
      }
    }
    if (page.path)
      renders.push({ node, path: page.path, document, error, markdown: page.markdown });
    if (page.type !== 'link') node.pages = await toTrees(page.pages);
    return node;
  };
  const toTrees = async (list) => {
    const nodes = [];
    for (const page of list) {
      nodes.push(await toTree(page));
      if (page.type === 'link') nodes.push(...(await toTrees(page.pages)));
    }
    return nodes;
  };
  const pages = await toTrees(layout.pages);
  assignSlugs(pages);

  const files = [];
  for (const render of renders) {
    const { node, path, document } = render;
    const [layoutPage] = layoutPageOf(node, '');
    const original = tree.get(path);
    const file = { path: posix.join(spaceDir, rootPrefix + path), original, document, layoutPage };
    try {
      if (render.error) throw render.error;
      file.rendered = await renderPageFile(layoutPage, document, path, paths);
      // Written anew: without the markdown the page was read from (markdown-source.ts), as
      // Bindery writes a page it did not read or that changed.
      const fresh = document && withoutMarkdownSource(document);
      file.renderedAnew = await renderPageFile(layoutPage, fresh, path, paths);
      file.keptSource = fresh !== document;
      if (fresh) {
        const refToUrl = (ref) => refToRelativeUrl(ref, path, node.id, paths);
        const body = await documentToMarkdown(fresh, { refToUrl });
        const again = resolveRelativeRefs(await markdownToDocument(body), path, pageAt, fileAt);
        file.documentEqual = equalDocuments(fresh, again);
      } else file.documentEqual = true;
    } catch (e) {
      file.error = e instanceof Error ? (e.stack ?? e.message) : String(e);
    }
    files.push(file);
  }
  const orphanIds = new Set(layout.orphans.flatMap((path) => pageAt.get(path) ?? []));
  const summary = layout.hasSummary
    ? {
        path: posix.join(spaceDir, rootPrefix + layout.summary),
        original: tree.get(layout.summary),
        rendered: Buffer.from(
          renderSummary(
            summaryPages(
              pages.flatMap((page) => layoutPageOf(page, '')),
              orphanIds,
            ),
            paths,
          ),
        ),
      }
    : undefined;
  return { files, summary, orphans: layout.orphans.length };
}

// ---------------------------------------------------------------------------------------------
// Comparing documents (test/fixtures/markdown/normalize-document.ts, in plain JavaScript)

function normalizeKeys(document) {
  // The markdown a document was read from is not its content.
  if (document.data && 'markdownSource' in document.data) {
    const { markdownSource: _source, ...data } = document.data;
    return normalizeKeys({ ...document, data });
  }
  const names = new Map();
  const rename = (id) => {
    if (!names.has(id)) names.set(id, `k${names.size}`);
    return names.get(id);
  };
  const table = (data, fragmentNames) => {
    const view = data.view ?? { columns: [] };
    const definition = data.definition ?? {};
    const shown = Array.isArray(view.columns) ? view.columns : [];
    // Shown columns first, then hidden ones (a card's target, its cover).
    const columnIds = [...shown, ...Object.keys(definition).filter((id) => !shown.includes(id))];
    const records = Object.entries(data.records ?? {}).sort(([, a], [, b]) =>
      a.orderIndex < b.orderIndex ? -1 : 1,
    );
    const value = (cell) =>
      typeof cell === 'string' && fragmentNames.has(cell) ? rename(cell) : cell;
    const renamedView = { ...view, columns: shown.map(rename) };
    for (const field of ['targetDefinition', 'coverDefinition', 'coverDefinitionDark']) {
      if (typeof view[field] === 'string') renamedView[field] = rename(view[field]);
    }
    if (view.columnWidths && typeof view.columnWidths === 'object') {
      renamedView.columnWidths = Object.fromEntries(
        columnIds
          .filter((id) => id in view.columnWidths)
          .map((id) => [rename(id), view.columnWidths[id]]),
      );
    }
    return {
      ...data,
      view: renamedView,
      definition: Object.fromEntries(
        columnIds.map((id) => [rename(id), { ...definition[id], id: rename(id) }]),
      ),
      records: Object.fromEntries(
        records.map(([id, record]) => [
          rename(id),
          {
            ...record,
            values: Object.fromEntries(
              columnIds
                .filter((column) => column in (record.values ?? {}))
                .map((column) => [rename(column), value(record.values[column])]),
            ),
          },
        ]),
      ),
    };
  };
  const walk = (value, tableFragment = false) => {
    if (Array.isArray(value)) return value.map((item) => walk(item, tableFragment));
    if (!value || typeof value !== 'object') return value;
    const isTable = value.type === 'table' && value.object === 'block';
    const fragmentNames = new Set((value.fragments ?? []).map((f) => f.fragment ?? ''));
    return Object.fromEntries(
      Object.entries(value).map(([field, child]) => {
        if (field === 'key') return [field, rename(String(child))];
        if (field === 'fragment' && tableFragment) return [field, rename(String(child))];
        if (field === 'data' && isTable) return [field, table(child, fragmentNames)];
        if (field === 'fragments') return [field, child.map((f) => walk(f, isTable))];
        return [field, walk(child)];
      }),
    );
  };
  return walk(document);
}

function stable(value) {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stable(value[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

function equalDocuments(a, b) {
  return stable(normalizeKeys(a)) === stable(normalizeKeys(b));
}

// ---------------------------------------------------------------------------------------------
// Constructs left as text

/** HTML elements GitBook writes (and people write in GitBook's markdown). */
const HTML_ELEMENTS = new Set(
  (
    'a abbr b blockquote br code col colgroup dd del details div dl dt em figcaption figure h1 h2 ' +
    'h3 h4 h5 h6 hr i img kbd li mark ol p picture pre s source span strong sub summary sup ' +
    'table tbody td tfoot th thead tr u ul video iframe'
  ).split(' '),
);

/**
 * The dialect constructs a text leaf holds (outside code), each counted once per leaf: a
 * GitBook construct found there was not read.
 */
function leafConstructs(text) {
  const found = new Set();
  for (const match of text.matchAll(/\{%\s*([a-z][a-z-]*)/g)) {
    if (!match[1].startsWith('end')) found.add(`{% ${match[1]}`);
  }
  for (const match of text.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)(?=[\s/>])/g)) {
    if (HTML_ELEMENTS.has(match[1].toLowerCase())) found.add(`<${match[1].toLowerCase()}>`);
  }
  if (/\$\$/.test(text)) found.add('$$');
  return found;
}

/**
 * The constructs the markdown holds as constructs: outside code, not escaped (`\<h2>`, `&#x3C;h2>`
 * and `&lt;h2>` are text that says "<h2>", and read so).
 */
function rawConstructs(markdown) {
  const outsideCode = markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
    .replace(/`[^`\n]*`/g, '')
    .replace(/\\[<{$]/g, '');
  return leafConstructs(outsideCode);
}

/**
 * The text leaves of a document outside code: the constructs they hold, by kind, among those
 * its markdown (`source`) holds as constructs: a construct in a leaf that the markdown wrote as
 * text is the text it says.
 */
function escapedConstructs(document, source) {
  const raw = rawConstructs(source);
  const found = {};
  const walk = (node) => {
    if (!node || typeof node !== 'object') return;
    if (node.object === 'block' && (node.type === 'code' || node.type === 'math')) return;
    if (node.object === 'leaf') {
      if (node.marks.some((mark) => mark.type === 'code')) return;
      for (const name of leafConstructs(node.text)) {
        if (raw.has(name)) found[name] = (found[name] ?? 0) + 1;
      }
      return;
    }
    for (const child of node.nodes ?? []) walk(child);
    for (const fragment of node.fragments ?? []) walk(fragment);
    if (node.object === 'text') for (const leaf of node.leaves ?? []) walk(leaf);
  };
  walk(document);
  return found;
}

/** What Bindery wrote through its escape hatch (JSON in HTML), by node type. */
function hatchedConstructs(text) {
  const found = {};
  for (const match of text.matchAll(/<!-- bindery:block (\{.*?\}) -->/gs)) {
    const type = /"type":"([^"]*)"/.exec(
      match[1].replace(/"(nodes|fragments|data)":\[[^\]]*\]/g, ''),
    );
    const name = `block ${/"object":"block".*?"type":"([^"]+)"/.exec(match[1])?.[1] ?? type?.[1] ?? '?'}`;
    found[name] = (found[name] ?? 0) + 1;
  }
  for (const match of text.matchAll(/data-bindery-inline="([^"]*)"/g)) {
    const json = match[1].replace(/&quot;/g, '"');
    const name = `inline ${/"type":"([^"]+)"\}?$/.exec(json)?.[1] ?? /"type":"([^"]+)"/.exec(json)?.[1] ?? '?'}`;
    found[name] = (found[name] ?? 0) + 1;
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Classifying differing lines

/**
 * The construct a differing line belongs to: tried on the original line, then on the written
 * one; the first rule that matches names it.
 */
const LINE_RULES = [
  ['html: card table', (l) => /<table\b[^>]*data-view="cards"/.test(l)],
  ['html: table', (l) => /<\/?(table|thead|tbody|tr|th|td|col)\b/.test(l)],
  ['html: picture', (l) => /<\/?(picture|source)\b/.test(l)],
  ['html: figure', (l) => /<\/?(figure|figcaption)\b/.test(l)],
  ['html: drawing img', (l) => /<img\b[^>]*gitbook-drawing/.test(l)],
  ['html: img', (l) => /<img\b/.test(l)],
  ['html: button', (l) => /<a\b[^>]*class="button/.test(l)],
  ['html: pre code', (l) => /<pre\b/.test(l)],
  ['html: details/summary', (l) => /<\/?(details|summary)\b/.test(l)],
  ['html: mark', (l) => /<mark\b/.test(l)],
  ['html: icon', (l) => /<i\b[^>]*class="fa-/.test(l)],
  ['html: anchor in heading', (l) => /^#{1,6} .*<a href="#[^"]*" id=/.test(l)],
  ['html: a', (l) => /<a\b/.test(l)],
  ['html: div', (l) => /<\/?div\b/.test(l)],
  ['html: p', (l) => /^<p>|<p><\/p>/.test(l)],
  ['html: br', (l) => /<br\s*\/?>/.test(l)],
  [
    'html: other',
    (l) =>
      [...l.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)(?=[\s/>])/g)].some((m) =>
        HTML_ELEMENTS.has(m[1].toLowerCase()),
      ),
  ],
  ['escape hatch (bindery)', (l) => /bindery:block|data-bindery-inline/.test(l)],
  ['tag: {% endembed %}', (l) => /\{\\?%\s*endembed/.test(l)],
  ...[
    'tabs',
    'tab',
    'hint',
    'embed',
    'code',
    'content-ref',
    'file',
    'stepper',
    'step',
    'columns',
    'column',
    'include',
    'swagger',
    'openapi',
    'openapi-operation',
    'openapi-schemas',
    'updates',
    'update',
    'if',
    'endif',
    'api-method',
    'page-ref',
  ].map((name) => [
    `tag: {% ${name} %}`,
    (l) => new RegExp(`\\{\\\\?%\\s*(end)?${name}(\\s|%)`).test(l),
  ]),
  ['tag: other {% %}', (l) => /\{\\?%/.test(l)],
  ['math $$', (l) => /\$\$/.test(l)],
  ['code fence', (l) => /^\s*(```|~~~)/.test(l)],
  ['heading', (l) => /^#{1,6}\s/.test(l)],
  ['thematic break ***', (l) => /^\s*(\*\s*){3,}$/.test(l)],
  ['thematic break', (l) => /^\s*(-\s*){3,}$|^\s*(_\s*){3,}$/.test(l)],
  ['gfm table', (l) => /^\s*\|.*\|\s*$/.test(l)],
  ['task list', (l) => /^\s*[-*+] \[[ xX]\]/.test(l)],
  ['bullet *', (l) => /^\s*\* /.test(l)],
  ['bullet +', (l) => /^\s*\+ /.test(l)],
  ['ordered list', (l) => /^\s*\d+[.)]\s/.test(l)],
  ['blockquote', (l) => /^\s*>/.test(l)],
  ['autolink', (l) => /\[(https?:[^\]]*)\]\(\1\)|<https?:/.test(l)],
  ['image', (l) => /!\[[^\]]*\]\(/.test(l)],
  ['emphasis _', (l) => /(^|[^\w\\])_[^_\s][^_]*_(?!\w)/.test(l)],
  ['strong __', (l) => /__\S/.test(l)],
  ['link', (l) => /\[[^\]]*\]\([^)]*\)/.test(l)],
];

const FIRST_MARKDOWN_RULE = LINE_RULES.findIndex(([name]) => name === 'code fence');

function classifyPair(before, after) {
  const lines = [before, after].filter((line) => line !== undefined && line.trim() !== '');
  const rule = (from, to) => {
    for (const line of lines) {
      for (const [name, test] of LINE_RULES.slice(from, to)) if (test(line)) return name;
    }
    return undefined;
  };
  // GitBook's HTML and block tags first, whatever else changed on their line.
  const tag = rule(0, FIRST_MARKDOWN_RULE);
  if (tag) return tag;
  if (before !== undefined && after !== undefined) {
    if (before.replace(/\s+/g, '') === after.replace(/\s+/g, '')) {
      return before.trim() === after.trim() ? 'indentation/trailing space' : 'spacing within line';
    }
    if (before.replace(/[\\\s]/g, '') === after.replace(/[\\\s]/g, '')) return 'escaping';
  }
  return rule(FIRST_MARKDOWN_RULE) ?? (lines.length === 0 ? 'blank lines' : 'other');
}

/** The constructs of a file's differing lines, and its diff. */
function diffFile(path, original, rendered) {
  const a = original.toString('utf8');
  const b = rendered.toString('utf8');
  const patch = structuredPatch(path, path, a, b, 'repository', 'bindery', { context: 2 });
  const frontmatterEnd = frontmatterLines(a);
  const constructs = {};
  const examples = {};
  const count = (name, before, after) => {
    constructs[name] = (constructs[name] ?? 0) + 1;
    const list = (examples[name] ??= []);
    if (list.length < 3) list.push({ before, after });
  };
  for (const hunk of patch.hunks) {
    let removed = [];
    let added = [];
    let line = hunk.oldStart;
    const flush = () => {
      const n = Math.max(removed.length, added.length);
      for (let i = 0; i < n; i++) {
        const before = removed[i];
        const after = added[i];
        if (before && before.line <= frontmatterEnd) count('front matter', before.text, after);
        else count(classifyPair(before?.text, after), before?.text, after);
      }
      removed = [];
      added = [];
    };
    for (const text of hunk.lines) {
      const sign = text[0];
      if (sign === '-') removed.push({ text: text.slice(1), line: line++ });
      else if (sign === '+') added.push(text.slice(1));
      else if (sign === '\\') continue;
      else {
        flush();
        line++;
      }
    }
    flush();
  }
  const unified = [
    `--- a/${path}`,
    `+++ b/${path}`,
    ...patch.hunks.flatMap((h) => [
      `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`,
      ...h.lines,
    ]),
  ].join('\n');
  return { constructs, examples, unified };
}

/** The last line number (1-based) of a file's front matter, 0 when it has none. */
function frontmatterLines(text) {
  const { frontmatter, body } = splitFrontmatter(text);
  if (frontmatter === null) return 0;
  return text.slice(0, text.length - body.length).split('\n').length - 1;
}

// ---------------------------------------------------------------------------------------------
// Tallies and the report

function emptyTally() {
  return {
    files: 0,
    identical: 0,
    anew: 0,
    kept: 0,
    whitespace: 0,
    documentEqual: 0,
    errors: 0,
    escapedFiles: 0,
    escaped: 0,
    hatchedFiles: 0,
    hatched: 0,
  };
}

function add(tally, file) {
  tally.files++;
  if (file.error) {
    tally.errors++;
    return;
  }
  if (file.identical) tally.identical++;
  if (file.anew) tally.anew++;
  if (file.keptSource) tally.kept++;
  if (file.whitespace) tally.whitespace++;
  if (file.documentEqual) tally.documentEqual++;
  const escaped = Object.values(file.escaped ?? {}).reduce((a, b) => a + b, 0);
  if (escaped > 0) tally.escapedFiles++;
  tally.escaped += escaped;
  const hatched = Object.values(file.hatched ?? {}).reduce((a, b) => a + b, 0);
  if (hatched > 0) tally.hatchedFiles++;
  tally.hatched += hatched;
}

function merge(into, counts, weight = 1) {
  for (const [name, n] of Object.entries(counts ?? {})) into[name] = (into[name] ?? 0) + n * weight;
}

function percent(n, d) {
  return d === 0 ? '–' : `${((100 * n) / d).toFixed(1)}%`;
}

function tallyRow(name, t) {
  const share = (n) => `${n} (${percent(n, t.files)})`;
  return `| ${name} | ${t.files} | ${share(t.identical)} | ${share(t.anew)} | ${share(t.whitespace)} | ${share(
    t.documentEqual,
  )} | ${t.kept} | ${t.escaped} in ${t.escapedFiles} | ${t.hatched} in ${t.hatchedFiles} | ${t.errors} |`;
}

const TALLY_HEADER = [
  '| | files | exported byte-identical | written anew byte-identical | anew, identical but whitespace | same document | source kept | escaped constructs (in files) | escape hatch (in files) | errors |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
];

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const repositories = readdirSync(options.corpus)
    .filter((name) => statSync(join(options.corpus, name)).isDirectory())
    .filter((name) => options.only.length === 0 || options.only.includes(name))
    .sort();
  mkdirSync(join(options.out, 'diffs'), { recursive: true });

  const groups = ['gitbook', 'legacy', 'other'];
  const overall = Object.fromEntries([
    ['all', emptyTally()],
    ...groups.map((g) => [g, emptyTally()]),
  ]);
  const constructsByGroup = Object.fromEntries(groups.map((g) => [g, {}]));
  const constructFilesByGroup = Object.fromEntries(groups.map((g) => [g, {}]));
  const escapedByGroup = Object.fromEntries(groups.map((g) => [g, {}]));
  const hatchedByGroup = Object.fromEntries(groups.map((g) => [g, {}]));
  const examples = {};
  const perRepository = [];
  const summaries = [];
  const fileReports = [];
  const started = Date.now();

  for (const name of repositories) {
    const dir = join(options.corpus, name);
    const source = openSource(dir);
    const spaces = resolveSpaces(source);
    const subjects = lastSubjects(dir, source.rev);
    const repo = { name, rev: source.rev, spaces: spaces.length, tally: emptyTally(), groups: {} };
    for (const g of groups) repo.groups[g] = emptyTally();
    for (const space of spaces) {
      const nested = spaces.filter(
        (other) => other !== space && (space === '' || other.startsWith(`${space}/`)),
      );
      const result = await roundTripSpace(source, space, nested);
      for (const file of result.files) {
        const group = authorGroup(subjects.get(file.path));
        const report = { repository: name, path: file.path, group };
        if (file.error) report.error = file.error.split('\n')[0];
        else {
          report.identical = file.original.equals(file.rendered);
          report.anew = file.original.equals(file.renderedAnew);
          report.keptSource = file.keptSource;
          report.whitespace =
            file.original.toString('utf8').replace(/\s+/g, '') ===
            file.renderedAnew.toString('utf8').replace(/\s+/g, '');
          report.documentEqual = file.documentEqual;
          report.escaped = file.document
            ? escapedConstructs(file.document, file.original.toString('utf8'))
            : {};
          report.hatched = hatchedConstructs(file.renderedAnew.toString('utf8'));
          if (!report.identical) {
            const diff = diffFile(file.path, file.original, file.rendered);
            const target = join(options.out, 'diffs-exported', name, `${file.path}.diff`);
            mkdirSync(posix.dirname(target), { recursive: true });
            writeFileSync(target, `${diff.unified}\n`);
          }
          // What differs is that of the page written anew: the dialect's own form.
          if (!report.anew) {
            const diff = diffFile(file.path, file.original, file.renderedAnew);
            report.constructs = diff.constructs;
            const target = join(options.out, 'diffs', name, `${file.path}.diff`);
            mkdirSync(posix.dirname(target), { recursive: true });
            writeFileSync(target, `${diff.unified}\n`);
            // Examples of each construct from as many files as can be, GitBook's first.
            for (const [construct, list] of Object.entries(diff.examples)) {
              const bucket = ((examples[group] ??= {})[construct] ??= []);
              if (bucket.length < 8) bucket.push({ path: `${name}/${file.path}`, ...list[0] });
            }
          }
        }
        fileReports.push(report);
        for (const tally of [repo.tally, repo.groups[group], overall.all, overall[group]])
          add(tally, report);
        merge(constructsByGroup[group], report.constructs);
        merge(
          constructFilesByGroup[group],
          Object.fromEntries(Object.keys(report.constructs ?? {}).map((k) => [k, 1])),
        );
        merge(escapedByGroup[group], report.escaped);
        merge(hatchedByGroup[group], report.hatched);
      }
      if (result.summary) {
        const identical = result.summary.original.equals(result.summary.rendered);
        summaries.push({
          repository: name,
          path: result.summary.path,
          identical,
          orphans: result.orphans,
        });
        if (!identical) {
          const diff = diffFile(
            result.summary.path,
            result.summary.original,
            result.summary.rendered,
          );
          const target = join(options.out, 'diffs', name, `${result.summary.path}.diff`);
          mkdirSync(posix.dirname(target), { recursive: true });
          writeFileSync(target, `${diff.unified}\n`);
        }
      }
    }
    perRepository.push(repo);
    if (!options.quiet) {
      const t = repo.tally;
      console.error(
        `${name}${source.rev ? `@${source.rev.slice(0, 7)}` : ''}: ${spaces.length} spaces, ${t.files} files, ` +
          `${t.identical} identical as exported, ${t.anew} written anew, ${t.documentEqual} same document`,
      );
    }
  }

  const sortDesc = (record) => Object.entries(record).sort((a, b) => b[1] - a[1]);
  const lines = [
    `# GitBook round-trip: ${options.corpus}`,
    '',
    `${new Date().toISOString()}, ${((Date.now() - started) / 1000).toFixed(1)} s. Groups: **gitbook** = last`,
    "commit `GITBOOK-n` (GitBook's Git Sync), **legacy** = `GitBook: …` (its older Git Sync), **other** = edited by hand.",
    '',
    '## Overall',
    '',
    ...TALLY_HEADER,
    ...['all', ...groups].map((g) => tallyRow(g, overall[g])),
    '',
    `SUMMARY.md: ${summaries.filter((s) => s.identical).length} of ${summaries.length} identical.`,
    '',
    '## Per repository',
    '',
    ...TALLY_HEADER,
    ...perRepository.flatMap((r) => [
      tallyRow(
        `**${r.name}**${r.rev ? ` @${r.rev.slice(0, 7)}` : ''} (${r.spaces} spaces)`,
        r.tally,
      ),
      ...groups.filter((g) => r.groups[g].files > 0).map((g) => tallyRow(`↳ ${g}`, r.groups[g])),
    ]),
    '',
    '## What differs, by construct (differing lines, in files)',
    '',
    '| construct | gitbook | legacy | other |',
    '| --- | --- | --- | --- |',
    ...sortDesc(
      Object.fromEntries(
        [...new Set(groups.flatMap((g) => Object.keys(constructsByGroup[g])))].map((k) => [
          k,
          constructFilesByGroup.gitbook[k] ?? 0,
        ]),
      ),
    ).map(
      ([k]) =>
        `| ${k} | ${groups
          .map((g) => `${constructsByGroup[g][k] ?? 0} (${constructFilesByGroup[g][k] ?? 0})`)
          .join(' | ')} |`,
    ),
    '',
    '## Constructs left as text (in text nodes)',
    '',
    '| construct | gitbook | legacy | other |',
    '| --- | --- | --- | --- |',
    ...[...new Set(groups.flatMap((g) => Object.keys(escapedByGroup[g])))]
      .sort((a, b) => (escapedByGroup.gitbook[b] ?? 0) - (escapedByGroup.gitbook[a] ?? 0))
      .map((k) => `| \`${k}\` | ${groups.map((g) => escapedByGroup[g][k] ?? 0).join(' | ')} |`),
    '',
    '## Written through the escape hatch',
    '',
    '| node | gitbook | legacy | other |',
    '| --- | --- | --- | --- |',
    ...[...new Set(groups.flatMap((g) => Object.keys(hatchedByGroup[g])))]
      .sort((a, b) => (hatchedByGroup.gitbook[b] ?? 0) - (hatchedByGroup.gitbook[a] ?? 0))
      .map((k) => `| ${k} | ${groups.map((g) => hatchedByGroup[g][k] ?? 0).join(' | ')} |`),
    '',
    '## Examples',
    '',
    ...groups
      .flatMap((group) =>
        Object.entries(examples[group] ?? {}).map(([construct, list]) => [
          `${group}: ${construct}`,
          list,
        ]),
      )
      .flatMap(([construct, list]) => [
        `### ${construct}`,
        '',
        ...list.flatMap((e) => [
          `- ${e.path}`,
          '  ```diff',
          ...(e.before !== undefined ? [`  -${e.before}`] : []),
          ...(e.after !== undefined ? [`  +${e.after}`] : []),
          '  ```',
        ]),
        '',
      ]),
    '## SUMMARY.md',
    '',
    ...summaries.map(
      (s) => `- ${s.repository}/${s.path}: ${s.identical ? 'identical' : 'differs'}`,
    ),
    '',
  ];
  writeFileSync(join(options.out, 'report.md'), lines.join('\n'));
  writeFileSync(
    join(options.out, 'report.json'),
    JSON.stringify(
      {
        corpus: options.corpus,
        overall,
        repositories: perRepository,
        constructs: constructsByGroup,
        constructFiles: constructFilesByGroup,
        escaped: escapedByGroup,
        hatched: hatchedByGroup,
        summaries,
        files: fileReports,
      },
      null,
      1,
    ),
  );

  console.log(
    [...TALLY_HEADER, ...['all', ...groups].map((g) => tallyRow(g, overall[g]))].join('\n'),
  );
  console.log(
    `SUMMARY.md: ${summaries.filter((s) => s.identical).length} of ${summaries.length} identical.`,
  );
  const top = sortDesc(constructFilesByGroup.gitbook).slice(0, 15);
  if (top.length > 0) {
    console.log('\nMost frequent differences in GitBook-written files (files):');
    for (const [k, n] of top) console.log(`  ${String(n).padStart(5)}  ${k}`);
  }
  const escapedTop = sortDesc(escapedByGroup.gitbook).slice(0, 10);
  if (escapedTop.length > 0) {
    console.log('\nLeft as text in GitBook-written files:');
    for (const [k, n] of escapedTop) console.log(`  ${String(n).padStart(5)}  ${k}`);
  }
  console.log(`\nReport: ${relative(process.cwd(), options.out) || '.'}/report.md`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
