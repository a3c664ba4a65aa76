import { strToU8, zipSync } from 'fflate';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { expectConforms, GITBOOK_0202 } from './helpers/conformance';
import { pathOfUrl } from './helpers/custom-fonts';
import type { TestOrganization } from './helpers/factories';

/**
 * Import runs (GitBook 0.202.0's imports group): content from a website (served here on
 * 127.0.0.1, OUTBOUND_ALLOW_PRIVATE) or uploaded files (Markdown, Word, ZIP archives of pages,
 * of a Confluence or a Notion export) written into a change request of a space in the
 * background; listed, read, cancelled.
 */

const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'),
  Buffer.from('0000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex'),
]);

interface RunBody {
  id: string;
  status: string;
  reason?: string;
  target: { space: string; changeRequest?: string; page?: string };
  site?: string;
  createdBy?: string;
  pages: { id: string; sourceURL?: string; type: string; status: string }[];
  progress: { done: number; total: number };
  warnings: string[];
  urls: { location: string };
}

interface TreePage {
  id: string;
  title: string;
  type: string;
  pages?: TreePage[];
}

/** A small website: pages with links, an image, a robots.txt, a link to another host. */
class TestSite {
  readonly requests: { host: string; path: string }[] = [];
  private server!: http.Server;
  port = 0;

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const host = req.headers.host ?? '';
      const path = req.url ?? '/';
      this.requests.push({ host, path });
      if (path.startsWith('/slow')) return; // never answers (a cancel test waits on it)
      const page = this.pages()[path];
      if (!page) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      res.writeHead(200, { 'content-type': page.type }).end(page.body);
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  private pages(): Record<string, { type: string; body: string | Buffer }> {
    const html = (title: string, body: string) => ({
      type: 'text/html; charset=utf-8',
      body:
        `<!doctype html><html><head><title>${title}</title></head><body>` +
        `<nav><a href="/">Home</a> <a href="/guide/start.html">Start</a></nav>` +
        `<main><h1>${title}</h1>${body}</main><footer>© Acme</footer></body></html>`,
    });
    return {
      '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nDisallow: /private/\n' },
      '/': html(
        'Acme Docs',
        '<p>Welcome to Acme. Read <a href="/guide/start.html">Getting started</a> first.</p>' +
          '<p>Secrets live <a href="/private/secret.html">here</a>.</p>' +
          `<p>See also <a href="http://localhost:${this.port}/elsewhere.html">elsewhere</a>.</p>`,
      ),
      '/guide/start.html': html(
        'Getting started',
        '<p>First steps with Acme. Then read <a href="install.html">Installation</a>.</p>' +
          '<p><img src="/img/logo.png" alt="Acme logo"></p>',
      ),
      '/guide/install.html': html(
        'Installation',
        '<p>Install Acme with <code>npm install acme</code>.</p><pre><code>acme init</code></pre>',
      ),
      '/private/secret.html': html('Secret page', '<p>Never to be imported.</p>'),
      '/elsewhere.html': html('Elsewhere', '<p>Another host.</p>'),
      '/img/logo.png': { type: 'image/png', body: PNG },
    };
  }
}

/** A minimal Word document (WordprocessingML in a ZIP): a heading, a paragraph, a list item. */
function docxFile(): Buffer {
  const w = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
  const paragraph = (text: string, style?: string) =>
    `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}<w:r><w:t>${text}</w:t></w:r></w:p>`;
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': strToU8(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
          '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
          '</Types>',
      ),
      '_rels/.rels': strToU8(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
          '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
          '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
          '</Relationships>',
      ),
      'word/document.xml': strToU8(
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${w}"><w:body>` +
          paragraph('Quarterly Report', 'Heading1') +
          paragraph('Revenue grew by twelve percent this quarter.') +
          paragraph('Outlook', 'Heading2') +
          paragraph('We expect steady growth.') +
          '</w:body></w:document>',
      ),
    }),
  );
}

const zip = (files: Record<string, string | Buffer>) =>
  Buffer.from(
    zipSync(
      Object.fromEntries(
        Object.entries(files).map(([path, data]) => [
          path,
          typeof data === 'string' ? strToU8(data) : new Uint8Array(data),
        ]),
      ),
    ),
  );

function markdownZip(): Buffer {
  return zip({
    'docs/README.md': '# Handbook\n\nStart with [the setup](setup.md).\n',
    'docs/setup.md':
      '# Setup\n\nInstall it.\n\n![Diagram](images/diagram.png)\n\nBack to [the handbook](README.md).\n',
    'docs/images/diagram.png': PNG,
  });
}

function confluenceZip(): Buffer {
  const page = (title: string, body: string) =>
    '<!DOCTYPE html><html><head><title>ENG : ' +
    title +
    '</title><link rel="stylesheet" href="styles/site.css" type="text/css" /></head><body class="theme-default aui-theme-default">' +
    '<div id="page"><div id="main" class="aui-page-panel"><div id="main-header">' +
    '<div id="breadcrumb-section"><ol id="breadcrumbs"><li class="first"><span><a href="index.html">Engineering</a></span></li></ol></div>' +
    `<h1 id="title-heading" class="pagetitle"><span id="title-text"> ENG : ${title} </span></h1></div>` +
    '<div id="content" class="view"><div class="page-metadata">Created by <span class="author"> Ada</span></div>' +
    `<div id="main-content" class="wiki-content group">${body}</div></div></div>` +
    '<div id="footer" role="contentinfo"><section class="footer-body"><p>Document generated by Confluence</p></section></div></div></body></html>';
  return zip({
    'ENG/index.html':
      '<!DOCTYPE html><html><head><title>Engineering</title></head><body><div id="page"><div id="main">' +
      '<div id="main-header"><h1 id="title-heading" class="pagetitle"><span id="title-text"> Engineering </span></h1></div>' +
      '<div id="content" class="view"><div class="pageSection"><h2 id="homepage-title" class="pageSectionTitle">Available Pages:</h2>' +
      '<ul><li><a href="Home_65537.html">Home</a><ul><li><a href="Architecture_65538.html">Architecture</a></li></ul></li></ul>' +
      '</div></div></div>' +
      '<div id="footer" role="contentinfo"><section class="footer-body"><p>Document generated by Confluence</p></section></div>' +
      '</div></body></html>',
    'ENG/Home_65537.html': page(
      'Home',
      '<p>Welcome to engineering. See <a href="Architecture_65538.html">Architecture</a>.</p>',
    ),
    'ENG/Architecture_65538.html': page(
      'Architecture',
      '<p>Our services talk over queues.</p>' +
        '<p><span class="confluence-embedded-file-wrapper"><img class="confluence-embedded-image" src="attachments/65538/65539.png" data-image-src="attachments/65538/65539.png"></span></p>' +
        '<div class="confluence-information-macro confluence-information-macro-information"><div class="confluence-information-macro-body"><p>Queues are durable.</p></div></div>',
    ),
    'ENG/attachments/65538/65539.png': PNG,
    'ENG/styles/site.css': 'body { color: black; }',
  });
}

function notionZip(): Buffer {
  const wiki = 'Team Wiki 0123456789abcdef0123456789abcdef';
  const onboarding = 'Onboarding fedcba9876543210fedcba9876543210';
  return zip({
    [`${wiki}.md`]:
      '# Team Wiki\n\nEverything about the team.\n\n' +
      `[Onboarding](${encodeURI(`${wiki}/${onboarding}.md`)})\n`,
    [`${wiki}/${onboarding}.md`]:
      '# Onboarding\n\nCreated: January 1, 2026\n\n<aside>\n💡 Ask your buddy first.\n\n</aside>\n\nWelcome aboard.\n',
  });
}

describe('imports', () => {
  let t: TestApp;
  const site = new TestSite();

  beforeAll(async () => {
    await site.start();
    t = await createTestApp({ IMPORT_MAX_PAGES: '20' });
  });
  afterAll(async () => {
    await t.close();
    await site.stop();
  });

  const importsPath = (org: { id: string }) => `/v1/org/${org.id}/imports`;
  const error = (code: number) => ({ error: { code, message: expect.any(String) } });
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  async function upload(
    org: TestOrganization,
    name: string,
    bytes: Buffer,
    by: Client = org.owner.client,
  ): Promise<string> {
    const signed = await by
      .post(`/v1/orgs/${org.id}/storage/upload`, {
        file: { name, type: 'application/octet-stream', size: bytes.length },
        kind: 'import_file',
      })
      .expect(201);
    await t.anonymous.put(pathOfUrl(signed.body.url as string), bytes).expect(204);
    return signed.body.key as string;
  }

  async function start(
    org: TestOrganization,
    body: object,
    by: Client = org.owner.client,
  ): Promise<RunBody> {
    const res = await by.post(importsPath(org), body).expect(201);
    expectConforms(res, 'startImportRun', GITBOOK_0202);
    return res.body as RunBody;
  }

  /** The run once it has ended (completed, failed or cancelled). */
  async function settled(org: TestOrganization, id: string): Promise<RunBody> {
    for (let i = 0; i < 600; i++) {
      const res = await org.owner.client.get(`${importsPath(org)}/${id}`).expect(200);
      if (res.body.status !== 'pending' && res.body.status !== 'in-progress') {
        expectConforms(res, 'getImportRun', GITBOOK_0202);
        return res.body as RunBody;
      }
      await sleep(50);
    }
    throw new Error(`Import run ${id} did not end`);
  }

  async function completed(org: TestOrganization, id: string): Promise<RunBody> {
    const run = await settled(org, id);
    if (run.status !== 'completed') throw new Error(`Import run ${id}: ${JSON.stringify(run)}`);
    return run;
  }

  async function until(org: TestOrganization, id: string, status: string): Promise<RunBody> {
    for (let i = 0; i < 600; i++) {
      const res = await org.owner.client.get(`${importsPath(org)}/${id}`).expect(200);
      if (res.body.status === status) return res.body as RunBody;
      await sleep(20);
    }
    throw new Error(`Import run ${id} never ${status}`);
  }

  const crPath = (spaceId: string, crId: string) => `/v1/spaces/${spaceId}/change-requests/${crId}`;

  /** The change request's pages, flattened, in tree order. */
  async function pagesOf(
    org: TestOrganization,
    spaceId: string,
    crId: string,
  ): Promise<(TreePage & { parent: string | null })[]> {
    const res = await org.owner.client.get(`${crPath(spaceId, crId)}/content`).expect(200);
    const flat: (TreePage & { parent: string | null })[] = [];
    const walk = (pages: TreePage[], parent: string | null) =>
      pages.forEach((page) => {
        flat.push({ ...page, parent });
        walk(page.pages ?? [], page.id);
      });
    walk(res.body.pages as TreePage[], null);
    return flat;
  }

  async function documentOf(
    org: TestOrganization,
    spaceId: string,
    crId: string,
    pageId: string,
  ): Promise<string> {
    const res = await org.owner.client
      .get(`${crPath(spaceId, crId)}/content/page/${pageId}`)
      .expect(200);
    return JSON.stringify(res.body.document ?? null);
  }

  async function markdownOf(
    org: TestOrganization,
    spaceId: string,
    crId: string,
    pageId: string,
  ): Promise<string> {
    const res = await org.owner.client
      .get(`${crPath(spaceId, crId)}/content/page/${pageId}?format=markdown`)
      .expect(200);
    return String(res.body.markdown ?? '');
  }

  async function filesOf(org: TestOrganization, spaceId: string, crId: string) {
    const res = await org.owner.client.get(`${crPath(spaceId, crId)}/content/files`).expect(200);
    return res.body.items as { id: string; name: string }[];
  }

  const byTitle = <P extends TreePage>(pages: P[], title: string): P => {
    const found = pages.find((page) => page.title === title);
    if (!found)
      throw new Error(`No page ${title} in ${pages.map((page) => page.title).join(', ')}`);
    return found;
  };

  describe('uploads of files to import (generateStorageUploadURL, kind import_file)', () => {
    it('takes Markdown, HTML, Word and ZIP files from members who edit, checked by their bytes', async () => {
      const org = await t.factories.organization();
      const editor = await t.factories.asMember(org, 'edit');
      const key = await upload(org, 'notes.md', Buffer.from('# Notes\n'), editor);
      expect(key).toMatch(new RegExp(`^uploads/${org.id}/import_file/[\\w-]+$`));
      const sign = (name: string, by: Client = org.owner.client) =>
        by.post(`/v1/orgs/${org.id}/storage/upload`, {
          file: { name, type: 'x', size: 10 },
          kind: 'import_file',
        });
      const refused = await sign('slides.pptx').expect(400);
      expect(refused.body.error.message).toMatch(/^file\.name: an import takes \.md, /);
      const big = await org.owner.client
        .post(`/v1/orgs/${org.id}/storage/upload`, {
          file: { name: 'a.zip', type: 'x', size: 60 * 1024 * 1024 },
          kind: 'import_file',
        })
        .expect(400);
      expect(big.body.error.message).toMatch(/^file\.size: /);
      // A .zip that is no archive, a .md that is no text: 400 on the PUT.
      const fake = await sign('export.zip').expect(201);
      const notZip = await t.anonymous
        .put(pathOfUrl(fake.body.url), Buffer.from('hello'))
        .expect(400);
      expect(notZip.body.error.message).toBe('The file is not a ZIP archive.');
      const binary = await sign('notes.md').expect(201);
      await t.anonymous
        .put(pathOfUrl(binary.body.url), Buffer.from([0xff, 0xfe, 0, 1]))
        .expect(400);
      // Fonts stay for admins; a reader uploads nothing.
      await editor
        .post(`/v1/orgs/${org.id}/storage/upload`, {
          file: { name: 'f.woff2', type: 'font/woff2', size: 10 },
          kind: 'customization_font',
        })
        .expect(403);
      const reader = await t.factories.asMember(org, 'read');
      expect((await sign('a.md', reader).expect(403)).body).toEqual(error(403));
    });
  });

  describe('POST /v1/org/{organizationId}/imports (startImportRun)', () => {
    it('imports a website into a new change request: pages, the image, links between pages, robots.txt and the host kept', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const before = site.requests.length;
      const run = await start(org, {
        source: { type: 'website', url: `${site.origin}/` },
        target: { space: space.id },
      });
      expect(run).toMatchObject({
        object: 'import-run',
        status: 'pending',
        source: { type: 'website', url: `${site.origin}/` },
        target: { space: space.id },
        createdBy: org.owner.id,
        pages: [],
        urls: {
          location: expect.stringMatching(new RegExp(`/v1/org/${org.id}/imports/${run.id}$`)),
        },
      });
      const done = await completed(org, run.id);
      const crId = done.target.changeRequest!;
      expect(crId).toEqual(expect.any(String));
      const requested = site.requests.slice(before);
      // robots.txt read; the disallowed page and the other host never asked for.
      expect(requested.map((r) => r.path)).toContain('/robots.txt');
      expect(requested.map((r) => r.path)).not.toContain('/private/secret.html');
      expect(requested.filter((r) => !r.host.startsWith('127.0.0.1'))).toEqual([]);
      expect(requested.map((r) => r.path)).toContain('/img/logo.png');

      const pages = await pagesOf(org, space.id, crId);
      const titles = pages.map((page) => page.title);
      expect(titles).toEqual(expect.arrayContaining(['Getting started', 'Installation']));
      expect(titles).not.toContain('Secret page');
      expect(titles).not.toContain('Elsewhere');
      const start_ = byTitle(pages, 'Getting started');
      const install = byTitle(pages, 'Installation');
      // The run lists its pages, with where each came from.
      expect(done.pages.length).toBeGreaterThanOrEqual(3);
      expect(done.pages.every((page) => page.status === 'complete')).toBe(true);
      expect(done.pages).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            id: start_.id,
            sourceURL: `${site.origin}/guide/start.html`,
            type: 'page',
          }),
        ]),
      );
      expect(done.progress.done).toBe(done.progress.total);
      // The link to another page is a link to the imported page; the image a file of the change request.
      const startDocument = await documentOf(org, space.id, crId, start_.id);
      expect(startDocument).toContain(`"page":"${install.id}"`);
      const files = await filesOf(org, space.id, crId);
      expect(files.length).toBeGreaterThanOrEqual(1);
      expect(files.some((file) => startDocument.includes(`"file":"${file.id}"`))).toBe(true);
      // The page body, without the site's navigation and footer.
      const installMarkdown = await markdownOf(org, space.id, crId, install.id);
      expect(installMarkdown).toContain('npm install acme');
      expect(installMarkdown).not.toContain('© Acme');

      // The change request is open, titled for the import; the primary content did not change.
      const cr = await org.owner.client.get(crPath(space.id, crId)).expect(200);
      expect(cr.body).toMatchObject({
        status: 'open',
        subject: `Import from 127.0.0.1:${site.port}`,
      });
      const primary = await org.owner.client.get(`/v1/spaces/${space.id}/content`).expect(200);
      const primaryTitles = JSON.stringify(primary.body.pages);
      expect(primaryTitles).not.toContain('Getting started');
    });

    it('imports into the given change request, under the given page', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const cr = await t.factories.changeRequest(org, space.id, {
        subject: 'Docs refresh',
        changes: [
          { operation: 'insert_page', title: 'Guides', document: { markdown: 'All guides.' } },
        ],
      });
      const holder = byTitle(await pagesOf(org, space.id, cr.id), 'Guides');
      const key = await upload(
        org,
        'billing.md',
        Buffer.from('# Billing\n\nInvoices are monthly.\n'),
      );
      const run = await start(org, {
        source: { type: 'file', files: [key] },
        target: { space: space.id, changeRequest: cr.id, page: holder.id },
        enhance: true,
      });
      expect(run.target).toEqual({ space: space.id, changeRequest: cr.id, page: holder.id });
      const done = await completed(org, run.id);
      expect(done.target.changeRequest).toBe(cr.id);
      const pages = await pagesOf(org, space.id, cr.id);
      const billing = byTitle(pages, 'Billing');
      expect(billing.parent).toBe(holder.id);
      expect(await markdownOf(org, space.id, cr.id, billing.id)).toContain('Invoices are monthly.');
      // Still the one change request.
      const list = await org.owner.client.get(`/v1/spaces/${space.id}/change-requests`).expect(200);
      expect(list.body.items).toHaveLength(1);
    });

    it('imports a zip of Markdown pages: pages, their image and the links between them', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const key = await upload(org, 'handbook.zip', markdownZip());
      const done = await completed(
        org,
        (await start(org, { source: { type: 'file', files: [key] }, target: { space: space.id } }))
          .id,
      );
      const crId = done.target.changeRequest!;
      // The imported pages (the space's own first page is in the change request too).
      const pages = (await pagesOf(org, space.id, crId)).filter((page) =>
        done.pages.some((made) => made.id === page.id),
      );
      expect(pages).toHaveLength(2);
      const setup = byTitle(pages, 'Setup');
      const home = pages.find((page) => page.id !== setup.id)!;
      expect(await documentOf(org, space.id, crId, home.id)).toContain(`"page":"${setup.id}"`);
      const files = await filesOf(org, space.id, crId);
      expect(files.map((file) => file.name)).toContain('diagram.png');
      const setupDocument = await documentOf(org, space.id, crId, setup.id);
      expect(setupDocument).toContain(
        `"file":"${files.find((f) => f.name === 'diagram.png')!.id}"`,
      );
      // The upload is taken: its key names nothing any more.
      const again = await org.owner.client
        .post(importsPath(org), {
          source: { type: 'file', files: [key] },
          target: { space: space.id },
        })
        .expect(400);
      expect(again.body.error.message).toMatch(/^source\.files\[0\]: no file uploaded/);
    });

    it('imports a Word document', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const key = await upload(org, 'Quarterly Report.docx', docxFile());
      const done = await completed(
        org,
        (await start(org, { source: { type: 'file', files: [key] }, target: { space: space.id } }))
          .id,
      );
      const crId = done.target.changeRequest!;
      const pages = await pagesOf(org, space.id, crId);
      const bodies = await Promise.all(
        pages.map((page) => markdownOf(org, space.id, crId, page.id)),
      );
      expect(bodies.join('\n')).toContain('Revenue grew by twelve percent this quarter.');
      expect(pages.map((page) => page.title).join(' ')).toMatch(/Quarterly Report/);
    });

    it('imports a Confluence space export', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const key = await upload(org, 'Confluence-space-export.zip', confluenceZip());
      const done = await completed(
        org,
        (await start(org, { source: { type: 'file', files: [key] }, target: { space: space.id } }))
          .id,
      );
      const crId = done.target.changeRequest!;
      const pages = await pagesOf(org, space.id, crId);
      const architecture = byTitle(pages, 'Architecture');
      const home = byTitle(pages, 'Home');
      expect(await documentOf(org, space.id, crId, home.id)).toContain(
        `"page":"${architecture.id}"`,
      );
      const markdown = await markdownOf(org, space.id, crId, architecture.id);
      expect(markdown).toContain('Our services talk over queues.');
      expect(markdown).not.toContain('Document generated by Confluence');
      expect((await filesOf(org, space.id, crId)).length).toBeGreaterThanOrEqual(1);
    });

    it('imports a Notion export', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const key = await upload(org, 'Export-5d1c.zip', notionZip());
      const done = await completed(
        org,
        (await start(org, { source: { type: 'file', files: [key] }, target: { space: space.id } }))
          .id,
      );
      const crId = done.target.changeRequest!;
      const pages = await pagesOf(org, space.id, crId);
      const wiki = byTitle(pages, 'Team Wiki');
      const onboarding = byTitle(pages, 'Onboarding');
      expect(onboarding.parent).toBe(wiki.id);
      expect(await markdownOf(org, space.id, crId, onboarding.id)).toContain('Welcome aboard.');
    });

    it('records why a run failed: a source with nothing to import', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const key = await upload(
        org,
        'broken.zip',
        Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(64, 7)]),
      );
      const run = await start(org, {
        source: { type: 'file', files: [key] },
        target: { space: space.id },
      });
      const failed = await settled(org, run.id);
      expect(failed.status).toBe('failed');
      expect(failed.reason).toMatch(/Nothing to import/);
      expect(failed.target.changeRequest).toBeUndefined();
      const list = await org.owner.client.get(`/v1/spaces/${space.id}/change-requests`).expect(200);
      expect(list.body.items).toHaveLength(0);
      // A website that does not answer: failed, saying which URL.
      const gone = await start(org, {
        source: { type: 'website', url: 'http://127.0.0.1:9/' },
        target: { space: space.id },
      });
      const unreachable = await settled(org, gone.id);
      expect(unreachable.status).toBe('failed');
      expect(unreachable.reason).toEqual(expect.any(String));
    });

    it('refuses bad input (400) with the field named', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const post = (body: object) => org.owner.client.post(importsPath(org), body).expect(400);
      expect((await post({ target: { space: space.id } })).body).toEqual(error(400));
      expect(
        (
          await post({
            source: { type: 'website', url: 'ftp://example.com/' },
            target: { space: space.id },
          })
        ).body.error.message,
      ).toMatch(/^source\.url: /);
      expect(
        (
          await post({
            source: { type: 'ftp', url: 'https://example.com/' },
            target: { space: space.id },
          })
        ).body.error.message,
      ).toMatch(/source\.type must be one of website, file/);
      expect(
        (
          await post({
            source: { type: 'file', files: [`uploads/${org.id}/import_file/nope`] },
            target: { space: space.id },
          })
        ).body.error.message,
      ).toMatch(/^source\.files\[0\]: /);
      expect(
        (await post({ source: { type: 'file', files: [] }, target: { space: space.id } })).body,
      ).toEqual(error(400));
      expect(
        (
          await post({
            source: { type: 'website', url: 'https://example.com/' },
            target: { space: space.id, page: 'nope' },
          })
        ).body.error.message,
      ).toMatch(/^target\.page: /);
      const merged = await t.factories.changeRequest(org, space.id, {
        changes: [{ operation: 'insert_page', title: 'A', document: { markdown: 'a' } }],
        merge: true,
      });
      expect(
        (
          await post({
            source: { type: 'website', url: 'https://example.com/' },
            target: { space: space.id, changeRequest: merged.id },
          })
        ).body.error.message,
      ).toMatch(/^target\.changeRequest: .* merged/);
      expect(
        (
          await post({
            source: { type: 'website', url: 'https://example.com/' },
            target: { space: space.id },
            site: 'nope',
          })
        ).body.error.message,
      ).toMatch(/^site: /);
    });

    it('answers 404 for an unknown space or change request and to another organization, 403 without the edit role', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const body = {
        source: { type: 'website', url: 'https://example.com/' },
        target: { space: space.id },
      };
      const unknown = await org.owner.client
        .post(importsPath(org), { ...body, target: { space: 'nope' } })
        .expect(404);
      expect(unknown.body).toEqual({ error: { code: 404, message: 'Space not found.' } });
      await org.owner.client
        .post(importsPath(org), { ...body, target: { space: space.id, changeRequest: 'nope' } })
        .expect(404);
      const other = await t.factories.organization();
      await other.owner.client.post(importsPath(org), body).expect(404);
      // Another organization's space, named in one's own organization: not found there.
      await other.owner.client.post(importsPath(other), body).expect(404);
      const reader = await t.factories.asMember(org, 'read');
      expect((await reader.post(importsPath(org), body).expect(403)).body).toEqual(error(403));
    });

    it('never reaches a private address when OUTBOUND_ALLOW_PRIVATE is off', async () => {
      const strict = await createTestApp({ OUTBOUND_ALLOW_PRIVATE: 'false' });
      try {
        const org = await strict.factories.organization();
        const space = await strict.factories.space(org);
        const before = site.requests.length;
        const res = await org.owner.client
          .post(importsPath(org), {
            source: { type: 'website', url: `${site.origin}/` },
            target: { space: space.id },
          })
          .expect(201);
        let run: RunBody = res.body;
        for (
          let i = 0;
          i < 600 && (run.status === 'pending' || run.status === 'in-progress');
          i++
        ) {
          await sleep(50);
          run = (await org.owner.client.get(`${importsPath(org)}/${run.id}`).expect(200)).body;
        }
        expect(run.status).toBe('failed');
        expect(run.reason).toEqual(expect.any(String));
        expect(site.requests.length).toBe(before);
      } finally {
        await strict.close();
      }
    });
  });

  describe('GET /v1/org/{organizationId}/imports (listImportRuns) and GET …/{importRunId} (getImportRun)', () => {
    it('lists the runs newest first, filtered by space, change request, site and status; reads one', async () => {
      const org = await t.factories.organization();
      const first = await t.factories.space(org);
      const second = await t.factories.space(org);
      const docs = await t.factories.site(org, { spaces: [second.id] });
      const key = await upload(org, 'a.md', Buffer.from('# A\n\nAlpha.\n'));
      const a = await completed(
        org,
        (await start(org, { source: { type: 'file', files: [key] }, target: { space: first.id } }))
          .id,
      );
      const b = await start(org, {
        source: { type: 'website', url: 'http://127.0.0.1:9/' },
        target: { space: second.id },
      });
      expect(b.site).toBe(docs.id);
      await settled(org, b.id);
      const list = await org.owner.client.get(importsPath(org)).expect(200);
      expectConforms(list, 'listImportRuns', GITBOOK_0202);
      expect(list.body.items.map((run: RunBody) => run.id)).toEqual([b.id, a.id]);
      const ids = async (query: string) =>
        (
          (await org.owner.client.get(`${importsPath(org)}?${query}`).expect(200)).body
            .items as RunBody[]
        ).map((run) => run.id);
      expect(await ids(`space=${first.id}`)).toEqual([a.id]);
      expect(await ids(`changeRequest=${a.target.changeRequest}`)).toEqual([a.id]);
      expect(await ids(`site=${docs.id}`)).toEqual([b.id]);
      expect(await ids('status=completed')).toEqual([a.id]);
      expect(await ids('status=failed')).toEqual([b.id]);
      expect(await ids('status=active')).toEqual([]);
      expect(await ids('limit=1')).toEqual([b.id]);
      const one = await org.owner.client.get(`${importsPath(org)}/${a.id}`).expect(200);
      expectConforms(one, 'getImportRun', GITBOOK_0202);
      expect(one.body).toMatchObject({
        id: a.id,
        status: 'completed',
        target: { space: first.id },
      });
      // Another organization sees nothing of them.
      const other = await t.factories.organization();
      expect((await other.owner.client.get(importsPath(other)).expect(200)).body.items).toEqual([]);
    });

    it('answers a run that stopped reporting as failed, with why', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const key = await upload(org, 'a.md', Buffer.from('# A\n'));
      const run = await completed(
        org,
        (await start(org, { source: { type: 'file', files: [key] }, target: { space: space.id } }))
          .id,
      );
      await t.dataSource.query(
        `UPDATE import_runs SET status = 'in-progress', updated_at = now() - interval '2 days' WHERE id = $1`,
        [run.id],
      );
      const stale = await org.owner.client.get(`${importsPath(org)}/${run.id}`).expect(200);
      expectConforms(stale, 'getImportRun', GITBOOK_0202);
      expect(stale.body).toMatchObject({
        status: 'failed',
        reason: expect.stringMatching(/stopped reporting/),
      });
      const failed = await org.owner.client.get(`${importsPath(org)}?status=failed`).expect(200);
      expect(failed.body.items.map((item: RunBody) => item.id)).toEqual([run.id]);
      const active = await org.owner.client.get(`${importsPath(org)}?status=active`).expect(200);
      expect(active.body.items).toEqual([]);
    });

    it('refuses bad filters (400), answers 404 for an unknown run and to another organization, 403 to guests', async () => {
      const org = await t.factories.organization();
      const bad = await org.owner.client.get(`${importsPath(org)}?status=done`).expect(400);
      expect(bad.body.error.message).toMatch(/^status must be one of active, /);
      expect((await org.owner.client.get(`${importsPath(org)}/nope`).expect(404)).body).toEqual({
        error: { code: 404, message: 'Import run not found.' },
      });
      const space = await t.factories.space(org);
      const run = await start(org, {
        source: { type: 'website', url: 'http://127.0.0.1:9/' },
        target: { space: space.id },
      });
      const other = await t.factories.organization();
      await other.owner.client.get(importsPath(org)).expect(404);
      await other.owner.client.get(`${importsPath(org)}/${run.id}`).expect(404);
      await other.owner.client.get(`${importsPath(other)}/${run.id}`).expect(404);
      const guest = await t.factories.asMember(org, null);
      expect((await guest.get(importsPath(org)).expect(403)).body).toEqual(error(403));
      await guest.get(`${importsPath(org)}/${run.id}`).expect(403);
      await settled(org, run.id);
    });
  });

  describe('POST /v1/org/{organizationId}/imports/{importRunId}/cancel (cancelImportRun)', () => {
    it('stops a running import: cancelled, nothing written; a second cancel is refused', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const run = await start(org, {
        source: { type: 'website', url: `${site.origin}/slow/` },
        target: { space: space.id },
      });
      await until(org, run.id, 'in-progress');
      const res = await org.owner.client.post(`${importsPath(org)}/${run.id}/cancel`).expect(200);
      expectConforms(res, 'cancelImportRun', GITBOOK_0202);
      expect(res.body).toMatchObject({ id: run.id, status: 'cancelled' });
      await sleep(500);
      const after = await org.owner.client.get(`${importsPath(org)}/${run.id}`).expect(200);
      expect(after.body.status).toBe('cancelled');
      const crs = await org.owner.client.get(`/v1/spaces/${space.id}/change-requests`).expect(200);
      expect(crs.body.items).toHaveLength(0);
      const again = await org.owner.client.post(`${importsPath(org)}/${run.id}/cancel`).expect(400);
      expect(again.body.error.message).toMatch(/is cancelled/);
      const listed = await org.owner.client.get(`${importsPath(org)}?status=cancelled`).expect(200);
      expect(listed.body.items.map((item: RunBody) => item.id)).toEqual([run.id]);
    });

    it('answers 404 for an unknown run and to another organization, 403 to a member who cannot edit the space', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.space(org);
      const run = await start(org, {
        source: { type: 'website', url: `${site.origin}/slow/other` },
        target: { space: space.id },
      });
      await org.owner.client.post(`${importsPath(org)}/nope/cancel`).expect(404);
      const other = await t.factories.organization();
      await other.owner.client.post(`${importsPath(org)}/${run.id}/cancel`).expect(404);
      await other.owner.client.post(`${importsPath(other)}/${run.id}/cancel`).expect(404);
      const reader = await t.factories.asMember(org, 'read');
      expect((await reader.post(`${importsPath(org)}/${run.id}/cancel`).expect(403)).body).toEqual(
        error(403),
      );
      // An editor of the space may.
      const editor = await t.factories.asMember(org, 'edit');
      await editor.post(`${importsPath(org)}/${run.id}/cancel`).expect(200);
    });
  });
});
