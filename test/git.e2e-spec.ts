import { deflateSync } from 'node:zlib';
import { ContentEngine } from '../src/content-engine/content-engine';
import type { DocumentBlock, JSONDocument } from '../src/content-engine/documents/document';
import { markdownToDocument } from '../src/content-engine/documents/markdown';
import { ContentWriter } from '../src/content-engine/writes/content-writer';
import { GitOperations } from '../src/git/jobs/git-operations';
import { OutboxEvent } from '../src/platform/events/outbox-event.entity';
import { createTestApp, TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { expectConforms, expectMatchesSchema } from './helpers/conformance';
import { commitOnSpace } from './helpers/content';
import type { TestOrganization } from './helpers/factories';
import { gitHttpBackend, startGitServer, type GitServer } from './helpers/git-server';

/**
 * Git import and export against a real Git smart-HTTP server (git http-backend on 127.0.0.1):
 * the pushed tree as the git CLI sees it, the round trip export → import, a hand-made
 * repository, credentials, operation ordering, failures, and access.
 */

// Without git these tests cannot run, and a skip would pass unnoticed: the file fails, unless
// BINDERY_TEST_SKIP_GIT=1 asks to skip it.
const skipGit = process.env.BINDERY_TEST_SKIP_GIT === '1';
const backend = skipGit ? undefined : gitHttpBackend();
if (!skipGit && !backend) {
  throw new Error(
    'test/git.e2e-spec.ts needs the git command line with git http-backend, and it is not ' +
      'installed. Install git (e.g. apt-get install git), or set BINDERY_TEST_SKIP_GIT=1 to ' +
      'skip the Git tests on purpose.',
  );
}
const describeWithGit = backend ? describe : describe.skip;
if (skipGit) console.warn('Skipping test/git.e2e-spec.ts: BINDERY_TEST_SKIP_GIT=1.');

/** A 16×8 PNG. */
function png(): Buffer {
  const chunk = (type: string, body: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(body.length);
    return Buffer.concat([length, Buffer.from(type, 'latin1'), body, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.from([0, 0, 0, 16, 0, 0, 0, 8, 8, 6, 0, 0, 0]);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 0x90)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: 8 }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface GitInfo {
  repoName?: string;
  url?: string;
  installationProvider?: string;
  integration?: string;
  updatedAt?: string;
  lastOperation: {
    kind: string;
    status: string;
    ref: string;
    error?: string;
    commit?: string;
    warnings?: string[];
    requestedAt: string;
    completedAt?: string;
  };
}

interface ApiPage {
  id: string;
  title: string;
  slug?: string;
  type: string;
  description?: string;
  icon?: string;
  git?: { oid: string; path: string };
  href?: string;
  layout?: Record<string, unknown>;
  pages: ApiPage[];
}

let counter = 0;

/** The layout of a page that sets none (content reads always show every field). */
function isDefaultLayout(layout: Record<string, unknown>): boolean {
  const { width, coverSize, coverMask, ...flags } = layout;
  return (
    width === 'default' &&
    coverSize === 'full' &&
    (coverMask === undefined || coverMask === 'none') &&
    Object.values(flags).every((v) => v === true)
  );
}

describeWithGit('Git import and export', () => {
  let t: TestApp;
  let org: TestOrganization;
  let server: GitServer;
  let guarded: GitServer;
  const credentials = { username: 'bot', password: 's3cret-T0ken' };

  beforeAll(async () => {
    server = await startGitServer();
    guarded = await startGitServer({ credentials });
    // A file limit of 2 MiB, so that a file over it stays small (the default is 100 MiB).
    t = await createTestApp({ GIT_MAX_FILE_BYTES: String(2 * 1024 * 1024) });
    org = await t.factories.organization();
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
    await guarded?.close();
  });

  const gitPath = (spaceId: string, op = '') => `/v1/spaces/${spaceId}/git${op ? `/${op}` : ''}`;

  /** An empty space of `org`, titled 'Space <n>' (n: the next value of `counter`). */
  async function emptySpace(): Promise<string> {
    return (await t.factories.space(org, { title: `Space ${++counter}`, empty: true })).id;
  }

  /**
   * A space with a page tree that exercises the layout: a first page with an image (a file)
   * and metadata, a page with subpages (one linking to another page), a group, a link.
   */
  async function seededSpace(): Promise<string> {
    const spaceId = await emptySpace();
    const engine = t.bindery.app.get(ContentEngine);
    const writer = t.bindery.app.get(ContentWriter);
    const fileId = `img${++counter}`;
    const stored = await t.dataSource.transaction((manager) =>
      writer.storeFile(manager, { id: fileId, name: 'diagram.png', data: png() }),
    );
    const put = (document: JSONDocument) =>
      t.dataSource.transaction((manager) => engine.put(manager, 'document', document));
    // The image as markdown makes it (a url ref), then pointed at the space's file.
    const start = await markdownToDocument(
      'Welcome to the **handbook**.\n\n- one\n- two\n\n```js\nconsole.log(1);\n```\n\n' +
        '![Architecture diagram](diagram.png)\n',
    );
    const images = start.nodes[start.nodes.length - 1] as DocumentBlock;
    expect(images.type).toBe('images');
    (images.nodes![0] as DocumentBlock).data = {
      ref: { kind: 'file', file: fileId },
      alt: 'Architecture diagram',
    };
    const writing = await markdownToDocument('Write with *markdown*.\n');
    const publishing = await markdownToDocument('See the writing guide.\n');
    const paragraph = publishing.nodes[0] as unknown as { nodes: unknown[] };
    paragraph.nodes.push({
      object: 'inline',
      type: 'link',
      data: { ref: { kind: 'page', page: `pgWriting${counter}` } },
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Writing', marks: [] }] }],
    });
    const c = counter;
    await commitOnSpace(t, spaceId, [
      { operation: 'insert_file', file: stored.hash },
      {
        operation: 'insert_page',
        id: `pgStart${c}`,
        meta: { title: 'Getting started', description: 'Start here', icon: 'rocket' },
        document: await put(start),
      },
      {
        operation: 'insert_page',
        id: `pgGuides${c}`,
        meta: { title: 'Guides', layout: { width: 'wide', outline: false } },
      },
      {
        operation: 'insert_page',
        id: `pgWriting${c}`,
        meta: { title: 'Writing content', slug: 'writing' },
        document: await put(writing),
        into: `pgGuides${c}`,
      },
      {
        operation: 'insert_page',
        id: `pgPublishing${c}`,
        meta: { title: 'Publishing [beta]' },
        document: await put(publishing),
        into: `pgGuides${c}`,
      },
      { operation: 'insert_page', id: `pgRef${c}`, type: 'group', meta: { title: 'Reference' } },
      {
        operation: 'insert_page',
        id: `pgApi${c}`,
        meta: { title: 'API' },
        document: await put(await markdownToDocument('The API.\n')),
        into: `pgRef${c}`,
      },
      {
        operation: 'insert_page',
        id: `pgLink${c}`,
        type: 'link',
        meta: { title: 'Website', target: { kind: 'url', url: 'https://example.com/' } },
        into: `pgRef${c}`,
      },
    ]);
    return spaceId;
  }

  /** Waits for the latest operation of the space to end; returns git/info. */
  async function settled(spaceId: string, client: Client = org.owner.client): Promise<GitInfo> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await client.get(gitPath(spaceId, 'info')).expect(200);
      expectConforms(res, 'getSpaceGitInfo');
      const info = res.body as GitInfo;
      if (!['pending', 'running'].includes(info.lastOperation.status)) return info;
      if (Date.now() > deadline)
        throw new Error(`Git operation still ${info.lastOperation.status}`);
      await sleep(100);
    }
  }

  async function exportSpace(spaceId: string, body: Record<string, unknown>): Promise<GitInfo> {
    const res = await org.owner.client.post(gitPath(spaceId, 'export'), body).expect(204);
    expectConforms(res, 'exportToGitRepository');
    return settled(spaceId);
  }

  async function importInto(spaceId: string, body: Record<string, unknown>): Promise<GitInfo> {
    const res = await org.owner.client.post(gitPath(spaceId, 'import'), body).expect(204);
    expectConforms(res, 'importGitRepository');
    return settled(spaceId);
  }

  async function content(
    spaceId: string,
  ): Promise<{ id: string; pages: ApiPage[]; files: unknown[]; git?: Record<string, unknown> }> {
    const res = await org.owner.client.get(`/v1/spaces/${spaceId}/content`).expect(200);
    // Git-synced revisions too: their commit says `createdByDocs` (see conformance.ts).
    expectConforms(res, 'getCurrentRevision');
    return res.body;
  }

  /** The page tree as titles, slugs, types and nesting. */
  function shape(pages: ApiPage[]): unknown[] {
    return pages.map((page) => ({
      title: page.title,
      type: page.type,
      ...(page.slug !== undefined && page.type !== 'link' ? { slug: page.slug } : {}),
      ...(page.description ? { description: page.description } : {}),
      ...(page.icon ? { icon: page.icon } : {}),
      ...(page.layout && !isDefaultLayout(page.layout) ? { layout: page.layout } : {}),
      pages: shape(page.pages ?? []),
    }));
  }

  function flatten(pages: ApiPage[]): ApiPage[] {
    return pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);
  }

  /** A page's document with keys dropped and refs named by what they point at. */
  async function normalizedDocument(
    spaceId: string,
    pageId: string,
    names: { pages: Map<string, string>; files: Map<string, string> },
  ): Promise<unknown> {
    const res = await org.owner.client
      .get(`/v1/spaces/${spaceId}/content/page/${pageId}`)
      .expect(200);
    const strip = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(strip);
      if (typeof value !== 'object' || value === null) return value;
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(value)) {
        // The markdown a document was read from (kept to write it back as it was) is not its
        // content: it names files and pages by the paths of the repository it came from.
        if (key === 'key' || key === 'markdownSource') continue;
        if (key === 'ref' && typeof child === 'object' && child) {
          const ref = child as { kind: string; page?: string; file?: string };
          out.ref =
            ref.kind === 'page'
              ? { page: names.pages.get(ref.page!) }
              : ref.kind === 'file'
                ? { file: names.files.get(ref.file!) }
                : ref;
          continue;
        }
        out[key] = strip(child);
      }
      return out;
    };
    return strip(res.body.document ?? null);
  }

  async function names(spaceId: string) {
    const revision = await content(spaceId);
    const files = (revision.files as { id: string; name: string }[]).map(
      (f) => [f.id, f.name] as [string, string],
    );
    return {
      pages: new Map(flatten(revision.pages).map((p) => [p.id, p.title])),
      files: new Map(files),
    };
  }

  it('exports the primary content in the Git Sync layout and records the commit', async () => {
    const spaceId = await seededSpace();
    const url = server.createRepository(`export-${counter}`);
    const repo = `export-${counter}`;
    const info = await exportSpace(spaceId, {
      url,
      ref: 'refs/heads/main',
      commitMessage: 'Docs: first export',
      repoCommitURL: 'https://git.example.com/acme/docs/commit',
    });
    expect(info.lastOperation).toMatchObject({
      kind: 'export',
      status: 'complete',
      ref: 'refs/heads/main',
    });
    expect(info).toMatchObject({ repoName: `export-${counter}`, url });

    const head = server.git(repo, 'rev-parse', 'refs/heads/main').trim();
    expect(info.lastOperation.commit).toBe(head);
    expect(server.git(repo, 'log', '-1', '--format=%B', 'main').trim()).toBe('Docs: first export');
    const files = server
      .git(repo, 'ls-tree', '-r', '--name-only', 'main')
      .trim()
      .split('\n')
      .sort();
    expect(files).toEqual(
      [
        '.gitbook.yaml',
        '.gitbook/assets/diagram.png',
        'README.md',
        'SUMMARY.md',
        'guides/README.md',
        'guides/publishing-beta.md',
        'guides/writing.md',
        'reference/api.md',
      ].sort(),
    );
    const show = (path: string) => server.git(repo, 'show', `main:${path}`);
    expect(show('.gitbook.yaml')).toContain('root: ./');
    expect(show('SUMMARY.md')).toBe(
      [
        '# Table of contents',
        '',
        '* [Getting started](README.md)',
        '* [Guides](guides/README.md)',
        '  * [Writing content](guides/writing.md)',
        '  * [Publishing \\[beta\\]](guides/publishing-beta.md)',
        '',
        '## Reference',
        '',
        '* [API](reference/api.md)',
        '* [Website](https://example.com/)',
        '',
      ].join('\n'),
    );
    const readme = show('README.md');
    expect(readme).toMatch(
      /^---\ndescription: Start here\nicon: rocket\n---\n\n# Getting started\n/,
    );
    expect(readme).toContain('Welcome to the **handbook**.');
    expect(readme).toContain('.gitbook/assets/diagram.png');
    expect(show('guides/publishing-beta.md')).toContain('[Writing](writing.md)');
    expect(show('guides/README.md')).toBe(
      '---\nlayout:\n  width: wide\n  outline:\n    visible: false\n---\n\n# Guides\n',
    );
    const asset = server.git(repo, 'cat-file', '-s', 'main:.gitbook/assets/diagram.png').trim();
    expect(Number(asset)).toBe(png().length);

    // The revision records the commit; pages their file.
    const revision = await content(spaceId);
    expect(revision.git).toEqual({
      oid: head,
      message: 'Docs: first export',
      createdByDocs: true,
      url: `https://git.example.com/acme/docs/commit/${head}`,
      ref: 'refs/heads/main',
    });
    expect((revision.files as { git?: unknown; name: string }[])[0]).toMatchObject({
      name: 'diagram.png',
      git: {
        path: '.gitbook/assets/diagram.png',
        oid: server.git(repo, 'rev-parse', 'main:.gitbook/assets/diagram.png').trim(),
      },
    });
    const writing = flatten(revision.pages).find((page) => page.title === 'Writing content')!;
    expect(writing.git).toEqual({
      path: 'guides/writing.md',
      oid: server.git(repo, 'rev-parse', 'main:guides/writing.md').trim(),
    });

    // The queue delivering the same job again (after a crash) does not export twice.
    const [row] = await t.dataSource.query(
      'SELECT operation_id FROM git_syncs WHERE space_id = $1',
      [spaceId],
    );
    await t.bindery.app.get(GitOperations).run({
      operationId: row.operation_id,
      spaceId,
      kind: 'export',
      url,
      ref: 'refs/heads/main',
      directory: '',
      force: false,
      standalone: false,
      commitMessage: 'Docs: first export',
      authorId: org.owner.id,
    });
    expect(server.git(repo, 'rev-parse', 'refs/heads/main').trim()).toBe(head);
    expect((await content(spaceId)).id).toBe(revision.id);
  });

  it('round trip: export, then import into an empty space, gives the same content', async () => {
    const source = await seededSpace();
    const repo = `round-${counter}`;
    const url = server.createRepository(repo);
    await exportSpace(source, { url, ref: 'refs/heads/main', commitMessage: 'Export' });
    const target = await emptySpace();
    const info = await importInto(target, { url, ref: 'refs/heads/main' });
    expect(info.lastOperation.error).toBeUndefined();
    expect(info.lastOperation).toMatchObject({ kind: 'import', status: 'complete' });
    const head = server.git(repo, 'rev-parse', 'main').trim();
    expect(info.lastOperation.commit).toBe(head);

    const [before, after] = [await content(source), await content(target)];
    expect(shape(after.pages)).toEqual(shape(before.pages));
    expect(after.git).toMatchObject({
      oid: head,
      message: 'Export',
      createdByDocs: false,
      url,
      ref: 'refs/heads/main',
    });
    const link = flatten(after.pages).find((page) => page.type === 'link');
    expect(link).toMatchObject({ title: 'Website' });

    const [sourceNames, targetNames] = [await names(source), await names(target)];
    const beforePages = flatten(before.pages).filter((p) => p.type === 'document');
    const afterPages = flatten(after.pages).filter((p) => p.type === 'document');
    for (const [i, page] of beforePages.entries()) {
      expect(await normalizedDocument(target, afterPages[i].id, targetNames)).toEqual(
        await normalizedDocument(source, page.id, sourceNames),
      );
    }
    expect(afterPages.find((p) => p.title === 'Writing content')!.git).toEqual({
      path: 'guides/writing.md',
      oid: server.git(repo, 'rev-parse', 'main:guides/writing.md').trim(),
    });

    const strip = (files: unknown[]) =>
      (files as Record<string, unknown>[]).map(({ name, contentType, size, dimensions }) => ({
        name,
        contentType,
        size,
        dimensions,
      }));
    expect(strip(after.files)).toEqual(strip(before.files));
    const file = (after.files as { downloadURL: string; git?: unknown }[])[0];
    expect(file.git).toEqual({
      path: '.gitbook/assets/diagram.png',
      oid: server.git(repo, 'rev-parse', 'main:.gitbook/assets/diagram.png').trim(),
    });
    const download = new URL(file.downloadURL);
    const bytes = await t.anonymous.get(`${download.pathname}${download.search}`).expect(200);
    expect(Buffer.compare(bytes.body as Buffer, png())).toBe(0);
  });

  it('imports a hand-made repository without SUMMARY.md or .gitbook.yaml from its folders', async () => {
    const repo = `hand-${++counter}`;
    const url = server.createRepository(repo);
    server.pushFiles(repo, 'refs/heads/main', {
      'README.md': '# Welcome\n\nHello from the repository.\n',
      'getting-started.md': '---\ndescription: The basics\n---\n# Quick start\n\nInstall it.\n',
      'guides/README.md': '# All guides\n\nEvery guide.\n',
      'guides/basics.md': 'No heading here, see [advanced](advanced_usage.md).\n',
      'guides/advanced_usage.md': '# Advanced usage\n\n![Logo](../images/logo.png)\n',
      'images/logo.png': png(),
      'notes.txt': 'not a page',
    });
    const spaceId = await emptySpace();
    const info = await importInto(spaceId, { url, ref: 'main' });
    expect(info.lastOperation).toMatchObject({ status: 'complete', ref: 'refs/heads/main' });
    const revision = await content(spaceId);
    expect(shape(revision.pages)).toEqual([
      { title: 'Welcome', type: 'document', slug: 'welcome', pages: [] },
      {
        title: 'Quick start',
        type: 'document',
        slug: 'getting-started',
        description: 'The basics',
        pages: [],
      },
      {
        title: 'All guides',
        type: 'document',
        slug: 'guides',
        pages: [
          { title: 'Advanced usage', type: 'document', slug: 'advanced-usage', pages: [] },
          { title: 'Basics', type: 'document', slug: 'basics', pages: [] },
        ],
      },
    ]);
    const basics = flatten(revision.pages).find((page) => page.title === 'Basics')!;
    const advanced = flatten(revision.pages).find((page) => page.title === 'Advanced usage')!;
    const res = await org.owner.client
      .get(`/v1/spaces/${spaceId}/content/page/${basics.id}`)
      .expect(200);
    expect(JSON.stringify(res.body.document)).toContain(`"page":"${advanced.id}"`);
    const welcome = await org.owner.client
      .get(`/v1/spaces/${spaceId}/content/page/${revision.pages[0].id}?format=markdown`)
      .expect(200);
    expect(welcome.body.markdown).toBe('# Welcome\n\nHello from the repository.\n');
  });

  it('imports what it can and names the files over GIT_MAX_FILE_BYTES in warnings', async () => {
    const repo = `large-${++counter}`;
    const url = server.createRepository(repo);
    server.pushFiles(repo, 'refs/heads/main', {
      'README.md':
        '# Welcome\n\n![Small](.gitbook/assets/small.png) [Video](.gitbook/assets/big.bin) ' +
        '[Clip](.gitbook/assets/clip.gif)\n',
      '.gitbook/assets/small.png': png(),
      // Over 1 MB (the API's upload limit, which files of a repository are not held to).
      '.gitbook/assets/clip.gif': Buffer.alloc(1024 * 1024 + 1, 5),
      '.gitbook/assets/big.bin': Buffer.alloc(2 * 1024 * 1024 + 1, 7),
    });
    const spaceId = await emptySpace();
    const info = await importInto(spaceId, { url, ref: 'main' });
    expect(info.lastOperation).toMatchObject({
      status: 'complete',
      warnings: [
        'Skipped .gitbook/assets/big.bin: 2097153 bytes, over the 2097152-byte file limit (GIT_MAX_FILE_BYTES).',
      ],
    });
    const revision = await content(spaceId);
    expect(
      (revision.files as { name: string; size: number }[]).map((file) => [file.name, file.size]),
    ).toEqual([
      ['clip.gif', 1024 * 1024 + 1],
      ['small.png', png().length],
    ]);

    // The next operation starts without the last one's warnings.
    server.pushFiles(repo, 'refs/heads/main', { 'README.md': '# Welcome\n\nHello.\n' });
    const again = await importInto(spaceId, { url, ref: 'main' });
    expect(again.lastOperation.status).toBe('complete');
    expect(again.lastOperation.warnings).toBeUndefined();
  });

  it('records space_gitsync_started and space_gitsync_completed, with the commit', async () => {
    const repo = `events-${++counter}`;
    const url = server.createRepository(repo);
    const commit = server.pushFiles(repo, 'refs/heads/main', { 'README.md': '# Hello\n' });
    const spaceId = await emptySpace();
    const imported = await importInto(spaceId, { url, ref: 'refs/heads/main' });
    expect(imported.lastOperation.status).toBe('complete');
    const failed = await importInto(spaceId, { url, ref: 'refs/heads/missing' });
    expect(failed.lastOperation.status).toBe('failed');

    const events = await t.dataSource
      .getRepository(OutboxEvent)
      .createQueryBuilder('e')
      .where('e.space_id = :spaceId AND e.type LIKE :git', { spaceId, git: 'space_gitsync%' })
      .orderBy('e.sequence')
      .getMany();
    const content = await org.owner.client.get(`/v1/spaces/${spaceId}/content`).expect(200);
    expect(events.map((event) => event.payload)).toEqual([
      expect.objectContaining({ type: 'space_gitsync_started', operation: 'import' }),
      expect.objectContaining({
        type: 'space_gitsync_completed',
        state: 'success',
        commitId: commit,
        revisionId: content.body.id,
        actor: { kind: 'user', id: org.owner.id },
      }),
      expect.objectContaining({ type: 'space_gitsync_started' }),
      expect.objectContaining({
        type: 'space_gitsync_completed',
        state: 'failure',
        error: expect.stringMatching(/refs\/heads\/missing/),
      }),
    ]);
    for (const event of events) {
      expectMatchesSchema(
        { ...event.payload, installationId: 'x' },
        event.type === 'space_gitsync_started'
          ? 'SpaceGitSyncStartedEvent'
          : 'SpaceGitSyncCompletedEvent',
      );
    }
  });

  it('uses credentials in the URL without storing or showing them', async () => {
    const repo = `private-${++counter}`;
    const bare = guarded.createRepository(repo);
    const withCredentials = bare.replace(
      'http://',
      `http://${credentials.username}:${credentials.password}@`,
    );
    const spaceId = await seededSpace();
    const exported = await exportSpace(spaceId, {
      url: withCredentials,
      ref: 'refs/heads/main',
      commitMessage: 'Private',
    });
    expect(exported.lastOperation.status).toBe('complete');
    expect(exported.url).toBe(bare);
    expect(guarded.requests.some((r) => r.authorization?.startsWith('Basic '))).toBe(true);

    const target = await emptySpace();
    const imported = await importInto(target, { url: withCredentials, ref: 'refs/heads/main' });
    expect(imported.lastOperation.status).toBe('complete');
    const revision = await org.owner.client.get(`/v1/spaces/${target}/content`).expect(200);
    expect(revision.body.git.url).toBe(bare);

    // A wrong password fails, and the failure does not echo it either.
    const wrong = bare.replace('http://', `http://${credentials.username}:wr0ng-Passw0rd@`);
    const failed = await importInto(target, { url: wrong, ref: 'refs/heads/main' });
    expect(failed.lastOperation.status).toBe('failed');
    expect(failed.lastOperation.error).toMatch(/credentials/);

    for (const secret of [credentials.password, 'wr0ng-Passw0rd']) {
      for (const id of [spaceId, target]) {
        const res = await org.owner.client.get(gitPath(id, 'info')).expect(200);
        expect(JSON.stringify(res.body)).not.toContain(secret);
        const all = await org.owner.client.get(`/v1/spaces/${id}/content`).expect(200);
        expect(JSON.stringify(all.body)).not.toContain(secret);
      }
      const rows = await t.dataSource.query('SELECT * FROM git_syncs');
      expect(JSON.stringify(rows)).not.toContain(secret);
      const revisions = await t.dataSource.query('SELECT git FROM revisions WHERE git IS NOT NULL');
      expect(JSON.stringify(revisions)).not.toContain(secret);
      const jobs = await t.dataSource
        .query(
          `SELECT data::text AS data FROM pgboss.job WHERE name = 'git-operations'
         UNION ALL SELECT data::text FROM pgboss.archive WHERE name = 'git-operations'`,
        )
        .catch(() =>
          t.dataSource.query(
            `SELECT data::text AS data FROM pgboss.job WHERE name = 'git-operations'`,
          ),
        );
      expect(jobs.length).toBeGreaterThan(0);
      expect(JSON.stringify(jobs)).not.toContain(secret);
      expect(JSON.stringify(jobs)).not.toContain(
        Buffer.from(`${credentials.username}:${secret}`).toString('base64'),
      );
    }
  });

  it('ignores an operation older than the last applied one', async () => {
    const repo = `ordered-${++counter}`;
    const url = server.createRepository(repo);
    const first = server.pushFiles(repo, 'refs/heads/main', { 'README.md': '# First\n' });
    const spaceId = await emptySpace();
    const applied = await importInto(spaceId, {
      url,
      ref: 'refs/heads/main',
      timestamp: '2026-01-02T00:00:00.000Z',
    });
    expect(applied.lastOperation).toMatchObject({ status: 'complete', commit: first });

    server.pushFiles(repo, 'refs/heads/main', { 'README.md': '# Second\n' });
    await org.owner.client
      .post(gitPath(spaceId, 'import'), {
        url,
        ref: 'refs/heads/main',
        timestamp: '2026-01-01T00:00:00.000Z',
      })
      .expect(204);
    await sleep(300);
    const after = await settled(spaceId);
    expect(after.lastOperation).toMatchObject({ status: 'complete', commit: first });
    expect((await content(spaceId)).pages.map((p) => p.title)).toEqual(['First']);

    // A newer one applies.
    const newer = await importInto(spaceId, {
      url,
      ref: 'refs/heads/main',
      timestamp: '2026-01-03T00:00:00.000Z',
    });
    expect(newer.lastOperation.status).toBe('complete');
    expect((await content(spaceId)).pages.map((p) => p.title)).toEqual(['Second']);
  });

  it('standalone import makes a revision without moving the primary', async () => {
    const repo = `standalone-${++counter}`;
    const url = server.createRepository(repo);
    const oid = server.pushFiles(repo, 'refs/heads/main', { 'README.md': '# Elsewhere\n' });
    const spaceId = await seededSpace();
    const before = await content(spaceId);
    const info = await importInto(spaceId, { url, ref: 'refs/heads/main', standalone: true });
    expect(info.lastOperation.status).toBe('complete');
    const after = await content(spaceId);
    expect(after.id).toBe(before.id);
    const [row] = await t.dataSource.query(
      `SELECT id, parents FROM revisions WHERE space_id = $1 AND git->>'oid' = $2`,
      [spaceId, oid],
    );
    expect(row.parents).toEqual([before.id]);
    const standalone = await org.owner.client
      .get(`/v1/spaces/${spaceId}/revisions/${row.id}`)
      .expect(200);
    expect(standalone.body.pages.map((p: ApiPage) => p.title)).toEqual(['Elsewhere']);
  });

  it('exports into repoProjectDirectory, keeping the rest of the repository', async () => {
    const repo = `monorepo-${++counter}`;
    const url = server.createRepository(repo);
    server.pushFiles(repo, 'refs/heads/main', { 'src/index.js': 'x', 'docs/old.md': '# Old\n' });
    const spaceId = await seededSpace();
    const info = await exportSpace(spaceId, {
      url,
      ref: 'refs/heads/main',
      commitMessage: 'Docs',
      repoProjectDirectory: 'docs',
    });
    expect(info.lastOperation.status).toBe('complete');
    const files = server.git(repo, 'ls-tree', '-r', '--name-only', 'main').trim().split('\n');
    expect(files).toContain('src/index.js');
    expect(files).toContain('docs/SUMMARY.md');
    expect(files).not.toContain('docs/old.md');
    expect(server.git(repo, 'rev-list', '--count', 'main').trim()).toBe('2');

    const target = await emptySpace();
    await importInto(target, { url, ref: 'refs/heads/main', repoProjectDirectory: 'docs' });
    expect(shape((await content(target)).pages)).toEqual(shape((await content(spaceId)).pages));
  });

  it('records a failing import in git info', async () => {
    const spaceId = await emptySpace();
    const missing = await importInto(spaceId, {
      url: `${server.origin}/nope.git`,
      ref: 'refs/heads/main',
    });
    expect(missing.lastOperation).toMatchObject({ kind: 'import', status: 'failed' });
    expect(missing.lastOperation.error).toMatch(/not found|404/i);

    const repo = `empty-${++counter}`;
    const url = server.createRepository(repo);
    const noRef = await importInto(spaceId, { url, ref: 'refs/heads/main' });
    expect(noRef.lastOperation.status).toBe('failed');
    expect(noRef.lastOperation.error).toContain('refs/heads/main');

    server.pushFiles(repo, 'refs/heads/main', { 'notes.txt': 'no pages here' });
    const nothing = await importInto(spaceId, { url, ref: 'refs/heads/main' });
    expect(nothing.lastOperation).toMatchObject({ status: 'failed' });
    expect(nothing.lastOperation.error).toMatch(/Nothing to import/);

    const unreachable = await importInto(spaceId, {
      url: 'http://127.0.0.1:9/repo.git',
      ref: 'refs/heads/main',
    });
    expect(unreachable.lastOperation.status).toBe('failed');
    expect(unreachable.lastOperation.error).toMatch(/refused|could not/i);
    expect((await content(spaceId)).pages).toEqual([]);
  });

  it('rejects bad input with 400', async () => {
    const spaceId = await emptySpace();
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['import', { ref: 'refs/heads/main' }, /url/],
      ['import', { url: 'https://example.com/r.git' }, /ref/],
      ['export', { url: 'https://example.com/r.git', ref: 'main' }, /commitMessage/],
      ['import', { url: 'ftp://example.com/r.git', ref: 'main' }, /http/],
      ['import', { url: 'not a url', ref: 'main' }, /url/],
      ['import', { url: 'https://example.com/r.git', ref: 'bad ref..' }, /ref/],
      [
        'import',
        { url: 'https://example.com/r.git', ref: 'main', timestamp: 'yesterday' },
        /timestamp/,
      ],
      [
        'import',
        { url: 'https://example.com/r.git', ref: 'main', gitInfo: { provider: 'svn' } },
        /provider/,
      ],
      [
        'import',
        { url: 'https://example.com/r.git', ref: 'main', repoProjectDirectory: '../up' },
        /repoProjectDirectory/,
      ],
      [
        'import',
        { url: 'https://example.com/r.git', ref: 'main', standalone: 'yes' },
        /standalone/,
      ],
    ];
    for (const [op, body, message] of cases) {
      const res = await org.owner.client.post(gitPath(spaceId, op), body).expect(400);
      expect(res.body.error.code).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    // Nothing was set up.
    await org.owner.client.get(gitPath(spaceId, 'info')).expect(404);
  });

  it('answers 404 for unknown spaces, spaces of other organizations and spaces never synced', async () => {
    const spaceId = await emptySpace();
    const body = { url: 'https://example.com/r.git', ref: 'main', commitMessage: 'x' };
    const none = await org.owner.client.get(gitPath(spaceId, 'info')).expect(404);
    expect(none.body.error.code).toBe(404);
    for (const client of [org.owner.client, (await t.factories.organization()).owner.client]) {
      const target = client === org.owner.client ? 'unknownSpace' : spaceId;
      await client.post(gitPath(target, 'import'), body).expect(404);
      await client.post(gitPath(target, 'export'), body).expect(404);
      await client.get(gitPath(target, 'info')).expect(404);
      await client.delete(gitPath(target, 'legacy-installation')).expect(404);
    }
  });

  it('needs admin on the space to import, export and delete, read to see git info', async () => {
    const spaceId = await seededSpace();
    const url = server.createRepository(`perm-${counter}`);
    await exportSpace(spaceId, {
      url,
      ref: 'refs/heads/main',
      commitMessage: 'x',
      gitInfo: { provider: 'github', url: 'https://github.com/acme/docs' },
    });
    for (const role of ['read', 'edit', 'create'] as const) {
      const client = await t.factories.asMember(org, role);
      const body = { url, ref: 'refs/heads/main', commitMessage: 'x' };
      const imp = await client.post(gitPath(spaceId, 'import'), body).expect(403);
      expect(imp.body.error.code).toBe(403);
      await client.post(gitPath(spaceId, 'export'), body).expect(403);
      await client.delete(gitPath(spaceId, 'legacy-installation')).expect(403);
      const info = await client.get(gitPath(spaceId, 'info')).expect(200);
      expectConforms(info, 'getSpaceGitInfo');
      expect(info.body).toMatchObject({
        installationProvider: 'github',
        integration: 'github-sync',
        url: 'https://github.com/acme/docs',
      });
    }
    const admin = await t.factories.asMember(org, 'admin');
    const res = await admin.delete(gitPath(spaceId, 'legacy-installation')).expect(204);
    expectConforms(res, 'deleteLegacyGitInstallation');
    // Not a legacy provider: it stays.
    expect((await settled(spaceId)).installationProvider).toBe('github');
    await t.dataSource.query(
      `UPDATE git_syncs SET provider = 'github-legacy' WHERE space_id = $1`,
      [spaceId],
    );
    expect((await settled(spaceId)).installationProvider).toBe('github-legacy');
    await admin.delete(gitPath(spaceId, 'legacy-installation')).expect(204);
    expect((await settled(spaceId)).installationProvider).toBeUndefined();
    // Also 204 when there is no Git setup at all.
    await admin.delete(gitPath(await emptySpace(), 'legacy-installation')).expect(204);
  });
});

describeWithGit('Git import and export with the outbound policy', () => {
  let t: TestApp;
  let server: GitServer;

  beforeAll(async () => {
    server = await startGitServer();
    t = await createTestApp({ OUTBOUND_ALLOW_PRIVATE: 'false' });
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  it('refuses a repository on a private address when OUTBOUND_ALLOW_PRIVATE is false', async () => {
    const org = await t.factories.organization();
    const space = await t.factories.space(org, { title: 'Private', empty: true });
    const url = server.createRepository('private');
    server.pushFiles('private', 'refs/heads/main', { 'README.md': '# Hi\n' });
    await org.owner.client
      .post(`/v1/spaces/${space.id}/git/import`, { url, ref: 'refs/heads/main' })
      .expect(204);
    const deadline = Date.now() + 20_000;
    let info: GitInfo;
    for (;;) {
      info = (await org.owner.client.get(`/v1/spaces/${space.id}/git/info`).expect(200)).body;
      if (!['pending', 'running'].includes(info.lastOperation.status) || Date.now() > deadline)
        break;
      await sleep(100);
    }
    expect(info.lastOperation.status).toBe('failed');
    expect(info.lastOperation.error).toMatch(/127\.0\.0\.1|private|not allowed/i);
    expect(server.requests).toEqual([]);
  });
});
