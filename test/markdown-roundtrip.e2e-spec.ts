import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JSONDocument } from '../src/content-engine/documents/document';
import { normalizeKeys } from './fixtures/markdown/normalize-document';
import { createTestApp, TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';
import { gitHttpBackend, startGitServer, type GitServer } from './helpers/git-server';

/**
 * The markdown corpus (test/fixtures/markdown, one construct per file) through the HTTP API and
 * through Git: what Bindery gives out as markdown, it takes back unchanged.
 *
 * The space is laid out as the fixtures' links expect (see test/fixtures/markdown/README.md):
 * the first page is README.md, each fixture a top-level page `<fixture>.md` beside `other.md`
 * and `install/README.md` (with a subpage), and the files logo.png and guide.pdf are in
 * `.gitbook/assets/`. Each fixture is checked three ways:
 * - written, read as markdown, written back: the JSON document is the same (keys aside);
 * - read as markdown twice (and in the stable form, written back): the same bytes;
 * - exported to a Git repository and imported into another space: the same document.
 */

const FIXTURES_DIR = join(__dirname, 'fixtures', 'markdown');
const FIXTURES = readdirSync(FIXTURES_DIR)
  .filter((name) => name.endsWith('.md') && name !== 'README.md')
  .sort();
const fixture = (name: string) => readFileSync(join(FIXTURES_DIR, name), 'utf8');
const slugOf = (name: string) => name.replace(/\.md$/, '');

// Git is needed for the last check; the other two run without it.
const backend = process.env.BINDERY_TEST_SKIP_GIT === '1' ? undefined : gitHttpBackend();
if (process.env.BINDERY_TEST_SKIP_GIT !== '1' && !backend) {
  throw new Error(
    'test/markdown-roundtrip.e2e-spec.ts needs git with git http-backend (apt-get install git), ' +
      'or BINDERY_TEST_SKIP_GIT=1 to skip its Git checks on purpose.',
  );
}

/** A 1×1 PNG and a tiny PDF, as the fixtures' files. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

interface PageItem {
  id: string;
  title: string;
  type: string;
  pages?: PageItem[];
}

type Names = { pages: Map<string, string>; files: Map<string, string> };

/**
 * A document with its keys (node keys, table ids, cell fragment names) renamed in order, and,
 * given `names`, its page and file refs named by page title and file name (ids differ between
 * spaces).
 */
function normalized(document: unknown, names?: Names): unknown {
  const named = (value: unknown): unknown => {
    if (Array.isArray(value)) {
      // A files cell of a table (a card's cover) holds its files' ids.
      return value.map((item) =>
        typeof item === 'string' && names?.files.has(item) ? names.files.get(item) : named(item),
      );
    }
    if (typeof value !== 'object' || value === null) return value;
    const ref = value as { kind?: string; page?: string; file?: string };
    if (names && typeof ref.kind === 'string') {
      if (ref.page !== undefined) return { ...ref, page: names.pages.get(ref.page) };
      if (ref.file !== undefined) return { ...ref, file: names.files.get(ref.file) };
    }
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) out[key] = named(child);
    return out;
  };
  return normalizeKeys(named(document) as JSONDocument);
}

/** A file's download URL, as `format=markdown` writes a file of the space. */
const DOWNLOAD_URL = /https?:\/\/[^\s"'<>()]*\/files\/sha256\/[0-9a-f]{64}\?[^\s"'<>()]*/g;

/** Markdown read from the API with its download URLs' expiry and signature left out. */
function withoutExpiry(markdown: string): string {
  return markdown.replace(DOWNLOAD_URL, (url) => url.replace(/(expires|signature)=[^&]*/g, '$1=…'));
}

/**
 * A fixture page's markdown as the fixture has it: without the title heading `format=markdown`
 * starts with, and with its files at their paths in the layout (the fixtures are top-level
 * pages) rather than their download URLs.
 */
function asFixture(markdown: string, title: string): string {
  const heading = `# ${title}\n`;
  const body = markdown.startsWith(heading) ? markdown.slice(heading.length) : markdown;
  return body
    .replace(/^\n/, '')
    .replace(
      DOWNLOAD_URL,
      (url) =>
        `.gitbook/assets/${new URL(url.replace(/\\&|&amp;|&#x26;/g, '&')).searchParams.get('name') ?? ''}`,
    );
}

/** Table rows without the padding that aligns their columns (a URL widens a column). */
function unpadded(markdown: string): string {
  return markdown.replace(/^\|.*\|$/gm, (row) =>
    row.replace(/ {2,}/g, ' ').replace(/-{3,}/g, '---'),
  );
}

describe('markdown round trips (test/fixtures/markdown)', () => {
  let t: TestApp;
  let org: TestOrganization;
  let owner: Client;
  let spaceId: string;
  /** Fixture page ids by fixture name. */
  const pageIds = new Map<string, string>();

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.factories.organization();
    owner = org.owner.client;
    spaceId = (await t.factories.space(org, { title: 'Corpus' })).id;
    // The layout first, then the fixtures 40 at a time (a batch takes at most 50 changes):
    // every link of a fixture resolves against the tree its batch makes.
    const layout = [
      { operation: 'insert_page', title: 'Other', slug: 'other', document: { markdown: 'Other.' } },
      {
        operation: 'insert_page',
        ref: 'install',
        title: 'Install',
        slug: 'install',
        document: { markdown: '## Step 2\n\nRun it.' },
      },
      {
        operation: 'insert_files',
        files: [
          { name: 'logo.png', contentType: 'image/png', base64: PNG.toString('base64') },
          { name: 'guide.pdf', contentType: 'application/pdf', base64: PDF.toString('base64') },
        ],
      },
    ];
    const withLayout = await t.factories.changeRequest(org, spaceId, { changes: layout });
    const install = await pageByTitle(withLayout.revision, 'Install');
    await owner
      .post(`/v1/spaces/${spaceId}/change-requests/${withLayout.id}/content`, {
        changes: [
          {
            operation: 'insert_page',
            title: 'Linux',
            slug: 'linux',
            into: install.id,
            document: { markdown: 'Linux.' },
          },
        ],
      })
      .expect(200);
    for (let i = 0; i < FIXTURES.length; i += 40) {
      const changes = FIXTURES.slice(i, i + 40).map((name) => ({
        operation: 'insert_page',
        title: slugOf(name),
        slug: slugOf(name),
        // The frontmatter names the title, so that a leading heading stays in the body.
        document: { markdown: `---\ntitle: ${slugOf(name)}\n---\n${fixture(name)}` },
      }));
      await owner
        .post(`/v1/spaces/${spaceId}/change-requests/${withLayout.id}/content`, { changes })
        .expect(200);
    }
    await owner
      .post(`/v1/spaces/${spaceId}/change-requests/${withLayout.id}/merge`, {})
      .expect(200);
    const primary = await owner.get(`/v1/spaces/${spaceId}/content/pages`).expect(200);
    for (const page of primary.body.pages as PageItem[]) {
      if (FIXTURES.includes(`${page.title}.md`)) pageIds.set(`${page.title}.md`, page.id);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  async function pageByTitle(revision: string, title: string): Promise<PageItem> {
    const res = await owner.get(`/v1/spaces/${spaceId}/revisions/${revision}/pages`).expect(200);
    const all = (pages: PageItem[]): PageItem[] =>
      pages.flatMap((page) => [page, ...all(page.pages ?? [])]);
    return all(res.body.pages as PageItem[]).find((page) => page.title === title)!;
  }

  function read(revision: string, pageId: string, query: string) {
    return owner.get(`/v1/spaces/${spaceId}/revisions/${revision}/page/${pageId}?${query}`);
  }

  it('has a corpus of at least 50 constructs', () => {
    expect(FIXTURES.length).toBeGreaterThanOrEqual(50);
    expect(pageIds.size).toBe(FIXTURES.length);
  });

  describe('through the API', () => {
    let changeRequest: string;
    let primaryRevision: string;

    beforeAll(async () => {
      primaryRevision = (await owner.get(`/v1/spaces/${spaceId}/content`).expect(200)).body.id;
      changeRequest = (await t.factories.changeRequest(org, spaceId)).id;
    });

    it.each(FIXTURES)(
      '%s: markdown read back and written again gives the same document',
      async (name) => {
        const pageId = pageIds.get(name)!;
        const json = await read(primaryRevision, pageId, 'format=document').expect(200);
        const markdown = await read(primaryRevision, pageId, 'format=markdown').expect(200);
        expectConforms(markdown, 'getPageInRevisionById');
        const text = markdown.body.markdown as string;
        // Read twice: byte-identical (but for the download URLs' expiry).
        expect(
          withoutExpiry(
            (await read(primaryRevision, pageId, 'format=markdown').expect(200)).body.markdown,
          ),
        ).toBe(withoutExpiry(text));
        // The page's title first, then the fixture in the form Bindery writes: it comes back as
        // it was written, but for its files, given as URLs a reader fetches.
        expect(text.startsWith(`# ${slugOf(name)}\n`)).toBe(true);
        expect(unpadded(asFixture(text, slugOf(name)))).toBe(unpadded(fixture(name)));

        const path = `/v1/spaces/${spaceId}/change-requests/${changeRequest}/content`;
        const written = await owner
          .post(path, {
            changes: [{ operation: 'update_page', page: pageId, document: { markdown: text } }],
          })
          .expect(200);
        const revision = written.body.revision as string;
        const again = await read(revision, pageId, 'format=document').expect(200);
        expect(normalized(again.body.document)).toEqual(normalized(json.body.document));
        expect(
          withoutExpiry(
            (await read(revision, pageId, 'format=markdown').expect(200)).body.markdown,
          ),
        ).toBe(withoutExpiry(text));

        // The stable form names every ref by its id, and is read back to the same refs.
        const stable = await read(
          revision,
          pageId,
          'format=markdown&format.markdown.refs=stable',
        ).expect(200);
        const rewritten = await owner
          .post(path, {
            changes: [
              {
                operation: 'update_page',
                page: pageId,
                document: { markdown: stable.body.markdown },
              },
            ],
          })
          .expect(200);
        const fromStable = await read(
          rewritten.body.revision as string,
          pageId,
          'format=document',
        ).expect(200);
        expect(normalized(fromStable.body.document)).toEqual(normalized(json.body.document));
      },
    );
  });

  (backend ? describe : describe.skip)('through Git', () => {
    let server: GitServer;
    let target: string;
    let sourceNames: Names;
    let targetNames: Names;
    /** Imported page ids by fixture name. */
    const imported = new Map<string, string>();

    async function settled(space: string): Promise<{ status: string; error?: string }> {
      for (const deadline = Date.now() + 60_000; ;) {
        const res = await owner.get(`/v1/spaces/${space}/git/info`).expect(200);
        const operation = res.body.lastOperation as { status: string; error?: string };
        if (!['pending', 'running'].includes(operation.status)) return operation;
        if (Date.now() > deadline) throw new Error(`Git operation still ${operation.status}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }

    async function names(space: string): Promise<Names> {
      const revision = (await owner.get(`/v1/spaces/${space}/content`).expect(200)).body as {
        pages: PageItem[];
        files: { id: string; name: string }[];
      };
      const all = (pages: PageItem[]): PageItem[] =>
        pages.flatMap((page) => [page, ...all(page.pages ?? [])]);
      return {
        pages: new Map(all(revision.pages).map((page) => [page.id, page.title])),
        files: new Map(revision.files.map((file) => [file.id, file.name])),
      };
    }

    beforeAll(async () => {
      server = await startGitServer();
      const url = server.createRepository('corpus');
      await owner
        .post(`/v1/spaces/${spaceId}/git/export`, {
          url,
          ref: 'refs/heads/main',
          commitMessage: 'Corpus',
        })
        .expect(204);
      expect(await settled(spaceId)).toMatchObject({ status: 'complete' });
      target = (await t.factories.space(org, { title: 'Imported corpus', empty: true })).id;
      await owner
        .post(`/v1/spaces/${target}/git/import`, { url, ref: 'refs/heads/main' })
        .expect(204);
      expect(await settled(target)).toMatchObject({ status: 'complete' });
      [sourceNames, targetNames] = [await names(spaceId), await names(target)];
      for (const [id, title] of targetNames.pages) imported.set(`${title}.md`, id);
    });
    afterAll(async () => {
      await server?.close();
    });

    it.each(FIXTURES)('%s: exported and imported, the document is the same', async (name) => {
      const [source, copy] = await Promise.all([
        owner.get(`/v1/spaces/${spaceId}/content/page/${pageIds.get(name)}`).expect(200),
        owner.get(`/v1/spaces/${target}/content/page/${imported.get(name)}`).expect(200),
      ]);
      expect(normalized(copy.body.document, targetNames)).toEqual(
        normalized(source.body.document, sourceNames),
      );
    });
  });
});
