import { deflateSync } from 'node:zlib';
import { createTestApp, TestApp } from './helpers/app';
import type { SiteSpaceBody } from './helpers/bodies';
import { changeRequestPath } from './helpers/content';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';
import { gitHttpBackend, startGitServer, type GitServer } from './helpers/git-server';

/**
 * Git sync in both directions against a real Git server (git http-backend on 127.0.0.1), with
 * a hand-made GitBook repository (custom root, readme and summary, a group, a page with
 * subpages, redirects, an orphan, an asset, files outside the content root): ids survive
 * imports, moves and renames; an unchanged commit or space makes no revision or commit; a
 * one-line edit changes one page; exports write only what changed, where the repository has
 * it; redirects reach the published site and come back; when both sides changed, the import
 * merges three-way or waits in a change request.
 */

// As in test/git.e2e-spec.ts: without git the file fails, unless BINDERY_TEST_SKIP_GIT=1.
const skipGit = process.env.BINDERY_TEST_SKIP_GIT === '1';
const backend = skipGit ? undefined : gitHttpBackend();
if (!skipGit && !backend) {
  throw new Error(
    'test/git-sync.e2e-spec.ts needs the git command line with git http-backend. Install git, ' +
      'or set BINDERY_TEST_SKIP_GIT=1 to skip the Git tests on purpose.',
  );
}
const describeWithGit = backend ? describe : describe.skip;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface GitInfo {
  lastOperation: {
    kind: string;
    status: string;
    commit?: string;
    error?: string;
    warnings?: string[];
    changeRequest?: string;
    progress?: { done: number; total: number };
  };
}

interface ApiPage {
  id: string;
  title: string;
  type: string;
  hidden?: boolean;
  git?: { oid: string; path: string };
  pages: ApiPage[];
}

/** A 2×2 PNG. */
function png(): Buffer {
  const chunk = (type: string, body: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(body.length);
    return Buffer.concat([length, Buffer.from(type, 'latin1'), body, Buffer.alloc(4)]);
  };
  const row = Buffer.from([0, 0x10, 0x20, 0x30, 0xff, 0x10, 0x20, 0x30, 0xff]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', Buffer.from([0, 0, 0, 2, 0, 0, 0, 2, 8, 6, 0, 0, 0])),
    chunk('IDAT', deflateSync(Buffer.concat([row, row]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A repository as a team writes it by hand, not as Bindery would. */
function handMade(): Record<string, string | Buffer> {
  return {
    'README.md': '# The repository\n\nNot documentation.\n',
    LICENSE: 'MIT\n',
    '.gitbook.yaml': [
      '# Docs live in docs/',
      'root: ./docs/',
      '',
      'structure:',
      '  readme: intro.md',
      '  summary: toc.md',
      '',
      'redirects:',
      '  old/setup: install.md',
      '  legacy/writing: guides/writing.md',
      '',
    ].join('\n'),
    'docs/toc.md': [
      '# Contents',
      '',
      '- [Introduction](intro.md)',
      '- [Install](install.md)',
      '  - [On Linux](install/linux.md)',
      '',
      '## Guides',
      '',
      '- [Writing](guides/writing.md)',
      '- [Publishing](guides/publishing.md)',
      '',
    ].join('\n'),
    'docs/intro.md': '# Introduction\n\nWelcome to the __docs__.\n\n- one\n- two\n',
    'docs/install.md':
      '---\ndescription: How to install\n---\n\n# Install\n\nRun the installer.\n\n' +
      'Then read [writing](guides/writing.md).\n',
    'docs/install/linux.md':
      '# On Linux\n\nUse the package of your distribution.\n\n' +
      'Or build it from source with make.\n\n' +
      'Then check that it runs.\n\n![Diagram](../.gitbook/assets/diagram.png)\n',
    'docs/guides/writing.md':
      '# Writing\n\nFirst paragraph.\n\nSecond paragraph.\n\nThird paragraph.\n',
    'docs/guides/publishing.md': '# Publishing\n\nPublish it when it is ready.\n',
    'docs/orphan.md': '# Orphan\n\nNot listed.\n',
    'docs/.gitbook/assets/diagram.png': png(),
  };
}

describeWithGit('Git sync', () => {
  let t: TestApp;
  let org: TestOrganization;
  let server: GitServer;
  let counter = 0;

  beforeAll(async () => {
    server = await startGitServer();
    t = await createTestApp();
    org = await t.factories.organization();
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  const gitPath = (spaceId: string, op: string) => `/v1/spaces/${spaceId}/git/${op}`;

  async function settled(spaceId: string): Promise<GitInfo> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await org.owner.client.get(gitPath(spaceId, 'info')).expect(200);
      expectConforms(res, 'getSpaceGitInfo');
      const info = res.body as GitInfo;
      if (!['pending', 'running'].includes(info.lastOperation.status)) return info;
      if (Date.now() > deadline) throw new Error(`still ${info.lastOperation.status}`);
      await sleep(100);
    }
  }

  async function operate(
    spaceId: string,
    op: 'import' | 'export',
    body: Record<string, unknown>,
  ): Promise<GitInfo['lastOperation']> {
    t.clock.advance(1000);
    const request = op === 'export' ? { commitMessage: 'Export', ...body } : body;
    await org.owner.client.post(gitPath(spaceId, op), request).expect(204);
    const { lastOperation } = await settled(spaceId);
    expect(lastOperation).toMatchObject({ kind: op, status: 'complete' });
    return lastOperation;
  }

  async function content(spaceId: string): Promise<{ revision: string; pages: ApiPage[] }> {
    const res = await org.owner.client.get(`/v1/spaces/${spaceId}/content`).expect(200);
    return { revision: res.body.id as string, pages: res.body.pages as ApiPage[] };
  }

  /** Every page by title, with its id and its file. */
  async function byTitle(spaceId: string): Promise<Map<string, ApiPage>> {
    const pages = new Map<string, ApiPage>();
    const visit = (list: ApiPage[]) =>
      list.forEach((page) => {
        pages.set(page.title, page);
        visit(page.pages ?? []);
      });
    visit((await content(spaceId)).pages);
    return pages;
  }

  /** A page's body as markdown (without the title heading `format=markdown` starts with). */
  async function markdown(spaceId: string, pageId: string): Promise<string> {
    const res = await org.owner.client
      .get(`/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`)
      .expect(200);
    return (res.body.markdown as string).replace(/^# .*\n/, '').trim();
  }

  /** What a revision changed from its first parent (GitBook's semantic changes). */
  async function changesOf(spaceId: string, revision: string) {
    const res = await org.owner.client
      .get(`/v1/spaces/${spaceId}/revisions/${revision}/changes?limit=100`)
      .expect(200);
    return res.body.changes as { type: string; page?: { id: string } }[];
  }

  /** Edits the space's content through a merged change request. */
  async function editInBindery(spaceId: string, changes: object[]): Promise<void> {
    await t.factories.changeRequest(org, spaceId, { changes, merge: true });
  }

  const head = (repo: string) => server.git(repo, 'rev-parse', 'main').trim();
  const changedFiles = (repo: string) =>
    server.git(repo, 'diff', '--name-only', 'main~1', 'main').trim().split('\n').sort();
  const show = (repo: string, path: string) => server.git(repo, 'show', `main:${path}`);

  /** A new repository holding `files`, and an empty space that imported it. */
  async function imported(files = handMade()) {
    const repo = `sync-${++counter}`;
    const url = server.createRepository(repo);
    server.pushFiles(repo, 'refs/heads/main', files);
    const spaceId = (await t.factories.space(org, { title: `Sync ${counter}`, empty: true })).id;
    const operation = await operate(spaceId, 'import', { url, ref: 'main' });
    return { repo, url, spaceId, operation };
  }

  describe('a hand-made repository, synced both ways', () => {
    let repo: string;
    let url: string;
    let spaceId: string;
    let ids: Map<string, string>;

    it('imports its layout, and reports what it did', async () => {
      ({ repo, url, spaceId } = await imported());
      const info = (await settled(spaceId)).lastOperation;
      expect(info.warnings).toEqual([
        'Imported as hidden pages, not listed in the summary: docs/orphan.md.',
      ]);
      expect(info.progress).toEqual({ done: 8, total: 8 });
      const pages = await byTitle(spaceId);
      expect([...pages.keys()]).toEqual([
        'Introduction',
        'Install',
        'On Linux',
        'Guides',
        'Writing',
        'Publishing',
        'Orphan',
      ]);
      expect(pages.get('Install')!.git!.path).toBe('docs/install.md');
      expect(pages.get('Guides')!.type).toBe('group');
      ids = new Map([...pages].map(([title, page]) => [title, page.id]));
    });

    it('exports nothing back when nothing changed: no commit, no file touched', async () => {
      const before = head(repo);
      const { revision } = await content(spaceId);
      const operation = await operate(spaceId, 'export', { url, ref: 'main' });
      expect(operation.commit).toBe(before);
      expect(head(repo)).toBe(before);
      expect((await content(spaceId)).revision).toBe(revision);
    });

    it('imports an unchanged commit without making a revision', async () => {
      const { revision } = await content(spaceId);
      await operate(spaceId, 'import', { url, ref: 'main' });
      expect((await content(spaceId)).revision).toBe(revision);
    });

    it('imports a one-line edit as one changed page, every id kept', async () => {
      const { revision: before } = await content(spaceId);
      server.editFiles(repo, 'main', {
        'docs/guides/writing.md':
          '# Writing\n\nFirst paragraph.\n\nSecond paragraph, edited in Git.\n\nThird paragraph.\n',
      });
      await operate(spaceId, 'import', { url, ref: 'main' });
      const { revision: after } = await content(spaceId);
      expect(after).not.toBe(before);
      expect(await changesOf(spaceId, after)).toEqual([
        expect.objectContaining({
          type: 'page_edited',
          page: expect.objectContaining({ id: ids.get('Writing') }),
        }),
      ]);
      const pages = await byTitle(spaceId);
      expect(new Map([...pages].map(([title, page]) => [title, page.id]))).toEqual(ids);
      expect(await markdown(spaceId, ids.get('Writing')!)).toContain(
        'Second paragraph, edited in Git.',
      );
    });

    it('exports an edit made in Bindery as that one file, in the repository layout', async () => {
      await editInBindery(spaceId, [
        {
          operation: 'update_page',
          page: ids.get('Publishing'),
          document: { markdown: 'Publish it when it is ready, and tell everyone.' },
        },
      ]);
      const before = head(repo);
      await operate(spaceId, 'export', { url, ref: 'main', commitMessage: 'Publishing' });
      expect(server.git(repo, 'rev-parse', 'main~1').trim()).toBe(before);
      expect(changedFiles(repo)).toEqual(['docs/guides/publishing.md']);
      expect(show(repo, 'docs/guides/publishing.md')).toBe(
        '# Publishing\n\nPublish it when it is ready, and tell everyone.\n',
      );
      // The files it did not change are the repository's own, byte for byte.
      const original = handMade();
      for (const path of [
        'docs/toc.md',
        'docs/intro.md',
        '.gitbook.yaml',
        'README.md',
        'LICENSE',
      ]) {
        expect(show(repo, path)).toBe(original[path].toString());
      }
    });

    it('puts a page added in Bindery beside its parent, and lists it', async () => {
      await editInBindery(spaceId, [
        {
          operation: 'insert_page',
          title: 'On macOS',
          into: ids.get('Install'),
          document: { markdown: 'Use the installer.' },
        },
      ]);
      await operate(spaceId, 'export', { url, ref: 'main' });
      expect(changedFiles(repo)).toEqual(['docs/install/on-macos.md', 'docs/toc.md']);
      expect(show(repo, 'docs/toc.md')).toContain(
        '* [Install](install.md)\n  * [On Linux](install/linux.md)\n  * [On macOS](install/on-macos.md)',
      );
      // Read back, it is the same page.
      const { revision } = await content(spaceId);
      await operate(spaceId, 'import', { url, ref: 'main' });
      expect((await content(spaceId)).revision).toBe(revision);
    });

    it('keeps the ids of a page moved and of a page renamed and edited in Git', async () => {
      const before = await byTitle(spaceId);
      server.editFiles(repo, 'main', {
        'docs/publish/how-to.md': { from: 'docs/guides/publishing.md' },
        'docs/install/gnu-linux.md': { from: 'docs/install/linux.md' },
      });
      server.editFiles(repo, 'main', {
        'docs/install/gnu-linux.md':
          '# On GNU/Linux\n\nUse the package of your distribution.\n\n' +
          'Or build it from source with make.\n\n' +
          'Then check that it runs.\n\n![Diagram](../.gitbook/assets/diagram.png)\n',
        'docs/toc.md': show(repo, 'docs/toc.md')
          .replace('guides/publishing.md', 'publish/how-to.md')
          .replace('[On Linux](install/linux.md)', '[On GNU/Linux](install/gnu-linux.md)'),
      });
      await operate(spaceId, 'import', { url, ref: 'main' });
      const after = await byTitle(spaceId);
      expect(after.get('Publishing')!.id).toBe(before.get('Publishing')!.id);
      expect(after.get('Publishing')!.git!.path).toBe('docs/publish/how-to.md');
      expect(after.get('On GNU/Linux')!.id).toBe(before.get('On Linux')!.id);
      expect(after.size).toBe(before.size);
    });

    it('keeps the id of an asset moved in Git', async () => {
      const files = async () => {
        const res = await org.owner.client.get(`/v1/spaces/${spaceId}/content/files`).expect(200);
        return res.body.items as { id: string; name: string }[];
      };
      const [before] = await files();
      server.editFiles(repo, 'main', {
        'docs/.gitbook/assets/images/diagram.png': { from: 'docs/.gitbook/assets/diagram.png' },
        'docs/install/gnu-linux.md': show(repo, 'docs/install/gnu-linux.md').replace(
          '.gitbook/assets/diagram.png',
          '.gitbook/assets/images/diagram.png',
        ),
      });
      await operate(spaceId, 'import', { url, ref: 'main' });
      expect((await files()).map((file) => file.id)).toEqual([before.id]);
    });
  });

  it('turns the redirects into the published site’s, and writes them back', async () => {
    const { url, spaceId } = await imported();
    const site = await t.factories.site(org, { spaces: [spaceId] });
    const sitePath = `/v1/orgs/${org.id}/sites/${site.id}`;
    await org.owner.client.post(`${sitePath}/publish`).expect(200);
    const siteSpaces = await org.owner.client.get(`${sitePath}/site-spaces`).expect(200);
    const siteSpaceId = (siteSpaces.body.items as SiteSpaceBody[])[0].id;
    // Imported again (a new commit) now that the space is published.
    const repo = url.replace(/^.*\/(.*)\.git$/, '$1');
    server.editFiles(repo, 'main', { 'docs/intro.md': '# Introduction\n\nWelcome.\n' });
    await operate(spaceId, 'import', { url, ref: 'main' });
    const pages = await byTitle(spaceId);
    const redirects = await org.owner.client.get(`${sitePath}/redirects`).expect(200);
    expect(
      (redirects.body.items as { source: string; destination: unknown }[])
        .map(({ source, destination }) => ({ source, destination }))
        .sort((a, b) => a.source.localeCompare(b.source)),
    ).toEqual([
      {
        source: '/legacy/writing',
        destination: { kind: 'site-page', siteSpaceId, pageId: pages.get('Writing')!.id },
      },
      {
        source: '/old/setup',
        destination: { kind: 'site-page', siteSpaceId, pageId: pages.get('Install')!.id },
      },
    ]);

    // Exported to a new repository, the space keeps its layout (the root, the files of its
    // pages) and the redirects follow, to the pages' files there.
    const copy = `sync-${++counter}`;
    const copyUrl = server.createRepository(copy);
    await operate(spaceId, 'export', { url: copyUrl, ref: 'main' });
    const config = show(copy, '.gitbook.yaml');
    expect(config).toContain('root: ./docs/\n');
    expect(config).toContain(
      'redirects:\n  old/setup: install.md\n  legacy/writing: guides/writing.md\n',
    );
    expect(show(copy, 'docs/install.md')).toBe(show(repo, 'docs/install.md'));
    // Each repository has its own sync: the first one still has nothing to receive.
    const before = head(repo);
    await operate(spaceId, 'export', { url, ref: 'main' });
    expect(head(repo)).toBe(before);
  });

  it('merges an import three-way when the space changed too, elsewhere', async () => {
    const { repo, url, spaceId } = await imported();
    const ids = await byTitle(spaceId);
    await editInBindery(spaceId, [
      {
        operation: 'update_page',
        page: ids.get('Introduction')!.id,
        document: { markdown: 'Welcome, from Bindery.' },
      },
    ]);
    server.editFiles(repo, 'main', {
      'docs/guides/publishing.md': '# Publishing\n\nPublish it, from Git.\n',
    });
    const operation = await operate(spaceId, 'import', { url, ref: 'main' });
    expect(operation.changeRequest).toBeUndefined();
    expect(await markdown(spaceId, ids.get('Introduction')!.id)).toBe('Welcome, from Bindery.');
    expect(await markdown(spaceId, ids.get('Publishing')!.id)).toBe('Publish it, from Git.');
  });

  it('leaves a conflicting import in a change request, the space as it was', async () => {
    const { repo, url, spaceId } = await imported();
    const ids = await byTitle(spaceId);
    const writing = ids.get('Writing')!.id;
    await editInBindery(spaceId, [
      {
        operation: 'update_page',
        page: writing,
        document: {
          markdown: 'First paragraph, from Bindery.\n\nSecond paragraph.\n\nThird paragraph.',
        },
      },
    ]);
    server.editFiles(repo, 'main', {
      'docs/guides/writing.md':
        '# Writing\n\nFirst paragraph, from Git.\n\nSecond paragraph.\n\nThird paragraph.\n',
    });
    const operation = await operate(spaceId, 'import', { url, ref: 'main' });
    expect(operation.changeRequest).toEqual(expect.any(String));
    const cr = await org.owner.client
      .get(changeRequestPath(spaceId, operation.changeRequest!))
      .expect(200);
    expect(cr.body).toMatchObject({
      status: 'open',
      subject: expect.stringMatching(/^Import [0-9a-f]{7} from refs\/heads\/main$/),
    });
    expect(operation.warnings).toContain(
      'The space and the repository both changed since the last sync and conflict on 1 point: ' +
        `the import is in change request #${cr.body.number}, to resolve and merge.`,
    );
    // The space keeps its edit; the change request holds Git's, in conflict with it.
    expect(await markdown(spaceId, writing)).toContain('First paragraph, from Bindery.');
    const conflicts = await org.owner.client
      .get(`${changeRequestPath(spaceId, operation.changeRequest!)}/conflicts`)
      .expect(200);
    expect(conflicts.body.conflicts).toHaveLength(1);
    expect(JSON.stringify(conflicts.body.conflicts[0])).toContain(writing);
    // The same commit again: the same change request, no other.
    const again = await operate(spaceId, 'import', { url, ref: 'main' });
    expect(again.changeRequest).toBe(operation.changeRequest);
  });

  it('exports only once the repository’s changes are imported, or with force', async () => {
    const { repo, url, spaceId } = await imported();
    const ids = await byTitle(spaceId);
    // Git edits Writing and Publishing; the space edits Introduction and Publishing.
    server.editFiles(repo, 'main', {
      'docs/guides/writing.md': '# Writing\n\nWritten in Git.\n',
      'docs/guides/publishing.md': '# Publishing\n\nPublished in Git.\n',
    });
    await editInBindery(spaceId, [
      {
        operation: 'update_page',
        page: ids.get('Introduction')!.id,
        document: { markdown: 'Introduced in Bindery.' },
      },
      {
        operation: 'update_page',
        page: ids.get('Publishing')!.id,
        document: { markdown: 'Published in Bindery.' },
      },
    ]);
    const exportTo = async () => {
      t.clock.advance(1000);
      await org.owner.client
        .post(gitPath(spaceId, 'export'), { url, ref: 'main', commitMessage: 'Export' })
        .expect(204);
      return (await settled(spaceId)).lastOperation;
    };
    const before = head(repo);
    expect(await exportTo()).toMatchObject({
      status: 'failed',
      error:
        'The repository changed since the last sync (docs/guides/publishing.md, ' +
        'docs/guides/writing.md): import it first, or export with force to overwrite those changes.',
    });
    expect(head(repo)).toBe(before);

    // The import conflicts on Publishing: all of it waits in a change request.
    const pulled = await operate(spaceId, 'import', { url, ref: 'main' });
    expect(pulled.changeRequest).toEqual(expect.any(String));
    expect(await markdown(spaceId, ids.get('Writing')!.id)).toContain('First paragraph.');
    expect((await exportTo()).status).toBe('failed');

    // Resolved (the space's Publishing kept) and merged, the import is in: the next import
    // takes the sync as done, and the export writes the space's edits alone.
    const cr = changeRequestPath(spaceId, pulled.changeRequest!);
    const { conflicts } = (await org.owner.client.get(`${cr}/conflicts`).expect(200)).body as {
      conflicts: { pageId: string; blockKeys: string[] }[];
    };
    const resolutions = conflicts.map(({ pageId, blockKeys }) => ({
      pageId,
      blockKey: blockKeys[0],
      keep: 'primary',
    }));
    await org.owner.client.post(`${cr}/update`, { resolutions }).expect(200);
    await org.owner.client.post(`${cr}/merge`, {}).expect(200);
    expect(await markdown(spaceId, ids.get('Writing')!.id)).toBe('Written in Git.');
    expect(await markdown(spaceId, ids.get('Publishing')!.id)).toBe('Published in Bindery.');
    expect((await operate(spaceId, 'import', { url, ref: 'main' })).changeRequest).toBeUndefined();
    await operate(spaceId, 'export', { url, ref: 'main' });
    expect(changedFiles(repo)).toEqual(['docs/guides/publishing.md', 'docs/intro.md']);
    expect(show(repo, 'docs/guides/writing.md')).toBe('# Writing\n\nWritten in Git.\n');
    expect(show(repo, 'docs/guides/publishing.md')).toBe('# Publishing\n\nPublished in Bindery.\n');

    // With force, an export overwrites what the repository changed since.
    server.editFiles(repo, 'main', {
      'docs/guides/writing.md': '# Writing\n\nRewritten in Git.\n',
      'docs/extra.md': '# Extra\n\nAdded in Git.\n',
    });
    await operate(spaceId, 'export', { url, ref: 'main', force: true });
    expect(changedFiles(repo)).toEqual(['docs/extra.md', 'docs/guides/writing.md']);
    expect(show(repo, 'docs/guides/writing.md')).toBe('# Writing\n\nWritten in Git.\n');
  });

  it('imports a repository whose files carry its progress past 100, and answers meanwhile', async () => {
    // 95 pages and 20 files: the 100th step is a file, stored while the import's progress is
    // written (it used to wait on the sync's row, locked by the import's own transaction).
    const files: Record<string, string | Buffer> = { 'README.md': '# Home\n\nThe home page.\n' };
    const summary = ['# Table of contents', '', '* [Home](README.md)'];
    for (let p = 1; p < 95; p++) {
      files[`page-${p}.md`] =
        `# Page ${p}\n\n![Picture ${p % 20}](.gitbook/assets/picture-${p % 20}.png)\n`;
      summary.push(`* [Page ${p}](page-${p}.md)`);
    }
    for (let f = 0; f < 20; f++) {
      files[`.gitbook/assets/picture-${f}.png`] = Buffer.concat([png(), Buffer.from([f])]);
    }
    files['SUMMARY.md'] = `${summary.join('\n')}\n`;
    const repo = `sync-${++counter}`;
    const url = server.createRepository(repo);
    server.pushFiles(repo, 'refs/heads/main', files);
    const spaceId = (await t.factories.space(org, { title: 'Past 100', empty: true })).id;
    t.clock.advance(1000);
    await org.owner.client.post(gitPath(spaceId, 'import'), { url, ref: 'main' }).expect(204);
    // Other requests are answered while it runs.
    const during = Date.now();
    await org.owner.client.get(`/v1/orgs/${org.id}`).expect(200);
    expect(Date.now() - during).toBeLessThan(5000);
    const { lastOperation } = await settled(spaceId);
    expect(lastOperation).toMatchObject({ kind: 'import', status: 'complete' });
    expect(lastOperation.progress).toEqual({ done: 115, total: 115 });
    const res = await org.owner.client.get(`/v1/spaces/${spaceId}/content`).expect(200);
    expect(res.body.files).toHaveLength(20);
    expect((await byTitle(spaceId)).size).toBe(95);
  }, 120_000);

  it('round-trips a 1,000-page repository without changing a file', async () => {
    const files: Record<string, string> = {
      'README.md': '# Home\n\nThe home page.\n',
    };
    const summary = ['# Table of contents', '', '* [Home](README.md)'];
    for (let s = 0; s < 20; s++) {
      summary.push('', `## Part ${s + 1}`, '');
      for (let p = 0; p < 50; p++) {
        const path = `part-${s + 1}/page-${p + 1}.md`;
        files[path] =
          `# Page ${s + 1}.${p + 1}\n\nThe body of page ${p + 1} of part ${s + 1}.\n\n` +
          `- a point\n- another\n\nSee [the next](page-${p + 2}.md).\n`;
        summary.push(`* [Page ${s + 1}.${p + 1}](${path})`);
      }
    }
    files['SUMMARY.md'] = `${summary.join('\n')}\n`;
    const { repo, url, spaceId } = await imported(files);
    expect((await byTitle(spaceId)).size).toBe(1 + 20 + 1000);
    const before = head(repo);
    await operate(spaceId, 'export', { url, ref: 'main' });
    expect(head(repo)).toBe(before);
  }, 120_000);

  describe('a repository GitBook wrote, exported to an empty one', () => {
    /** GitBook's own forms, and a few a team writes by hand (kept as they are). */
    function gitbookMade(): Record<string, string | Buffer> {
      return {
        'SUMMARY.md': [
          '# Table of contents',
          '',
          '* [Welcome](README.md)',
          '* [Plans](plans/README.md)',
          '  * [Pricing in short](plans/pricing.md)',
          '  * [Buttons](plans/pricing.md#buttons)',
          '  * ```yaml',
          '    props:',
          '      models: true',
          '    type: builtin:openapi',
          '    dependencies:',
          '      spec:',
          '        ref:',
          '          kind: openapi',
          '          spec: petstore',
          '    ```',
          '',
          '## Guides',
          '',
          '* [Install \\_ run](guides/install.md)',
          '* [Status page](https://status.example.com)',
          '',
        ].join('\n'),
        'README.md': [
          '---',
          'description: >-',
          '  Everything about the product, from the first install to the last plan, in',
          '  one place.',
          'icon: house',
          'cover: .gitbook/assets/cover.png',
          'coverY: -20',
          'coverHeight: 240',
          'layout:',
          '  width: wide',
          '  cover:',
          '    visible: true',
          '    size: hero',
          '  title:',
          '    visible: true',
          '  outline:',
          '    visible: false',
          '  tags:',
          '    visible: true',
          '  actions:',
          '    visible: false',
          'tags:',
          '  - product',
          '---',
          '',
          '# Welcome',
          '',
          'Read about the [plans](plans/) and [how to install](guides/install.md#linux).',
          '',
        ].join('\n'),
        'plans/README.md':
          '# Plans\n\nChoose one. Back to [the start](../).\n\n' +
          '{% content-ref url="pricing.md" %}\n[pricing.md](pricing.md)\n{% endcontent-ref %}\n',
        'plans/pricing.md': [
          '---',
          'icon: tag',
          'description: What it costs',
          '---',
          '# Pricing',
          '',
          '## Buttons',
          '',
          'See [all plans](./) and the [flow](../images/flow.png).',
          '',
          '![](../.gitbook/assets/install-flow.drawing.svg)',
          '',
        ].join('\n'),
        'guides/install.md':
          'Install it with [the plans](../plans/README.md) in mind.\n\n## Linux\n\nUse the package.\n',
        '.gitbook/assets/cover.png': png(),
        '.gitbook/assets/install-flow.drawing.svg':
          '<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"></svg>\n',
        'images/flow.png': png(),
      };
    }

    it('comes back byte for byte, its structure read into the pages', async () => {
      const files = gitbookMade();
      const { spaceId } = await imported(files);
      const pages = await byTitle(spaceId);
      // The heading is the title; the summary's own title is the page's link title.
      expect([...pages.keys()]).toEqual([
        'Welcome',
        'Plans',
        'Pricing',
        'Buttons',
        'petstore',
        'Guides',
        'Install _ run',
        'Status page',
      ]);
      const res = await org.owner.client.get(`/v1/spaces/${spaceId}/content`).expect(200);
      expectConforms(res, 'getCurrentRevision');
      const pricing = pages.get('Pricing')!;
      expect(pages.get('Buttons')).toMatchObject({
        type: 'link',
        target: { kind: 'anchor', anchor: 'buttons', page: pricing.id },
      });
      expect(pages.get('petstore')).toMatchObject({
        type: 'computed',
        computed: {
          type: 'builtin:openapi',
          props: { models: true },
          dependencies: { spec: { ref: { kind: 'openapi', spec: 'petstore' } } },
        },
      });
      const listed = await org.owner.client.get(`/v1/spaces/${spaceId}/content/files`).expect(200);
      const fileId = (name: string) =>
        (listed.body.items as { id: string; name: string }[]).find((f) => f.name === name)!.id;
      expect(pages.get('Welcome')).toMatchObject({
        icon: 'house',
        cover: { ref: { kind: 'file', file: fileId('cover.png') }, yPos: -20, height: 240 },
        layout: { width: 'wide', cover: true, coverSize: 'hero', outline: false, tags: true },
      });
      expect((pages.get('Welcome') as unknown as { layout: object }).layout).toMatchObject({
        actions: false,
      });
      // Relative references to files of the repository are those files, wherever they are.
      const page = await org.owner.client
        .get(`/v1/spaces/${spaceId}/content/page/${pricing.id}`)
        .expect(200);
      const refs: unknown[] = [];
      JSON.stringify(page.body.document, (key, value: unknown) => {
        if (key === 'ref') refs.push(value);
        return value;
      });
      expect(refs).toEqual([
        { kind: 'page', page: pages.get('Plans')!.id },
        { kind: 'file', file: fileId('flow.png') },
        { kind: 'file', file: fileId('install-flow.drawing.svg') },
      ]);

      const copy = `sync-${++counter}`;
      const copyUrl = server.createRepository(copy);
      await operate(spaceId, 'export', { url: copyUrl, ref: 'main' });
      const written = server.git(copy, 'ls-tree', '-r', '--name-only', 'main').trim().split('\n');
      expect(written.filter((path) => path !== '.gitbook.yaml').sort()).toEqual(
        Object.keys(files).sort(),
      );
      for (const [path, data] of Object.entries(files)) {
        if (typeof data === 'string') {
          expect([path, server.git(copy, 'show', `main:${path}`)]).toEqual([path, data]);
        } else {
          const size = Number(server.git(copy, 'cat-file', '-s', `main:${path}`).trim());
          expect([path, size]).toEqual([path, data.length]);
        }
      }
    });
    it('keeps a hand-written SUMMARY.md: escaped titles, and entries without a link over their pages', async () => {
      const files = {
        'SUMMARY.md': [
          '# Table of contents',
          '',
          '* [Introduction](README.md)',
          '* [Installation](installation/README.md)',
          '  * [Install by RPM \\(Red Hat Linux\\)](installation/rpm.md)',
          '  * Obsolete Installation',
          '    * Treasure Agent v3 (EOL) Installation',
          '      * [Install by RPM v3 \\(Red Hat Linux\\)](installation/rpm-v3.md)',
          '* [monitor_agent](input/monitor_agent.md)',
          '',
        ].join('\n'),
        'README.md': '# Introduction\n\nStart here.\n',
        'installation/README.md': '# Installation\n',
        'installation/rpm.md': '# Install by RPM (Red Hat Linux)\n\nUse yum.\n',
        'installation/rpm-v3.md': '# Install by RPM v3 (Red Hat Linux)\n\nUse the old repo.\n',
        'input/monitor_agent.md': '# monitor_agent\n\nMetrics over HTTP.\n',
      };
      const { spaceId, url } = await imported(files);
      const pages = await byTitle(spaceId);
      // An entry without a link is an empty page over its pages, in the tree the API answers.
      const obsolete = pages.get('Obsolete Installation')!;
      expect(obsolete).toMatchObject({ type: 'document', slug: 'obsolete-installation' });
      expect(obsolete.pages?.map((page) => page.title)).toEqual([
        'Treasure Agent v3 (EOL) Installation',
      ]);
      expect(obsolete.pages?.[0].pages?.map((page) => page.title)).toEqual([
        'Install by RPM v3 (Red Hat Linux)',
      ]);
      const res = await org.owner.client.get(`/v1/spaces/${spaceId}/content`).expect(200);
      expectConforms(res, 'getCurrentRevision');
      expect(JSON.stringify(res.body)).not.toContain('linkless');

      const copy = `sync-${++counter}`;
      const copyUrl = server.createRepository(copy);
      await operate(spaceId, 'export', { url: copyUrl, ref: 'main' });
      const written = server.git(copy, 'ls-tree', '-r', '--name-only', 'main').trim().split('\n');
      expect(written.filter((path) => path !== '.gitbook.yaml').sort()).toEqual(
        Object.keys(files).sort(),
      );
      for (const [path, data] of Object.entries(files)) {
        expect([path, server.git(copy, 'show', `main:${path}`)]).toEqual([path, data]);
      }
      // Imported again from the source, the same pages (ids kept), no new revision.
      const { revision } = await content(spaceId);
      await operate(spaceId, 'import', { url, ref: 'main' });
      expect((await content(spaceId)).revision).toBe(revision);
      expect((await byTitle(spaceId)).get('Obsolete Installation')!.id).toBe(obsolete.id);
    });

    it("resolves cards' targets and covers and pictures' dark sources to the space's pages and files", async () => {
      const readme = [
        '# Start',
        '',
        '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th></tr></thead><tbody><tr><td><strong>Guide</strong></td><td><a href="guide.md">guide.md</a></td><td><a href=".gitbook/assets/cover.png">cover.png</a></td></tr></tbody></table>',
        '',
        '<picture><source srcset=".gitbook/assets/dark.png" media="(prefers-color-scheme: dark)"><img src=".gitbook/assets/light.png" alt=""></picture>',
        '',
      ].join('\n');
      const files = {
        'README.md': readme,
        'guide.md': '# Guide\n\nRead on.\n',
        '.gitbook/assets/cover.png': png(),
        '.gitbook/assets/dark.png': png(),
        '.gitbook/assets/light.png': png(),
      };
      const { spaceId } = await imported(files);
      const pages = await byTitle(spaceId);
      const listed = await org.owner.client.get(`/v1/spaces/${spaceId}/content/files`).expect(200);
      const fileId = (name: string) =>
        (listed.body.items as { id: string; name: string }[]).find((f) => f.name === name)!.id;
      const res = await org.owner.client
        .get(`/v1/spaces/${spaceId}/content/page/${pages.get('Start')!.id}`)
        .expect(200);
      expectConforms(res, 'getPageInRevisionById');
      const [table, images] = res.body.document.nodes as {
        data: { records?: Record<string, { values: object }> };
        nodes?: { data: object }[];
      }[];
      const [record] = Object.values(table.data.records!);
      expect(Object.values(record.values)).toEqual(
        expect.arrayContaining([
          { kind: 'page', page: pages.get('Guide')!.id },
          [fileId('cover.png')],
        ]),
      );
      expect(images.nodes![0].data).toMatchObject({
        ref: { kind: 'file', file: fileId('light.png') },
        refDark: { kind: 'file', file: fileId('dark.png') },
      });
      const copy = `sync-${++counter}`;
      const copyUrl = server.createRepository(copy);
      await operate(spaceId, 'export', { url: copyUrl, ref: 'main' });
      expect(server.git(copy, 'show', 'main:README.md')).toBe(readme);
    });

    it("writes a card's cover, its page's only file, as the file's URL in the page's markdown", async () => {
      const { spaceId } = await imported({
        'README.md': [
          '# Start',
          '',
          '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-cover data-type="files"></th></tr></thead><tbody><tr><td><strong>Guide</strong></td><td><a href=".gitbook/assets/cover.png">cover.png</a></td></tr></tbody></table>',
          '',
        ].join('\n'),
        '.gitbook/assets/cover.png': png(),
      });
      const start = (await byTitle(spaceId)).get('Start')!;
      const listed = await org.owner.client.get(`/v1/spaces/${spaceId}/content/files`).expect(200);
      const [cover] = listed.body.items as { id: string; downloadURL: string }[];
      for (const refs of ['stable', 'relative']) {
        const res = await org.owner.client
          .get(
            `/v1/spaces/${spaceId}/content/page/${start.id}?format=markdown&format.markdown.refs=${refs}`,
          )
          .expect(200);
        expectConforms(res, 'getPageInRevisionById');
        expect([refs, res.body.markdown]).toEqual([
          refs,
          expect.stringContaining(`<a href="${cover.downloadURL.split('?')[0]}?`),
        ]);
        expect(res.body.markdown).not.toContain(`/files/${cover.id}`);
      }
    });

    it('keeps the markdown it read for the repository, never in the document the API answers', async () => {
      const page = '# Notes\n\n* one\n* two\n\nSome _emphasis_ and ***\n';
      const { spaceId } = await imported({ 'README.md': page });
      const notes = (await byTitle(spaceId)).get('Notes')!;
      const res = await org.owner.client
        .get(`/v1/spaces/${spaceId}/content/page/${notes.id}`)
        .expect(200);
      expectConforms(res, 'getPageInRevisionById');
      expect(res.body.document.data).toEqual({});
      expect(JSON.stringify(res.body)).not.toContain('* one');
      const { revision } = await content(spaceId);
      const doc = await org.owner.client
        .get(`/v1/spaces/${spaceId}/revisions/${revision}/page/${notes.id}/document`)
        .expect(200);
      expect(doc.body.data).toEqual({});
      // The page's markdown, and the repository it is exported to, are as the file was.
      expect(await markdown(spaceId, notes.id)).toBe('* one\n* two\n\nSome _emphasis_ and ***');
      const copy = `sync-${++counter}`;
      const copyUrl = server.createRepository(copy);
      await operate(spaceId, 'export', { url: copyUrl, ref: 'main' });
      expect(server.git(copy, 'show', 'main:README.md')).toBe(page);
    });
  });

  describe("a repository's site configuration (gitbook-docs.yaml)", () => {
    const siteConfig = [
      '$schema: https://api.gitbook.com/gitbook-docs.yaml',
      'site:',
      '  title: Acme Docs',
      '  structure:',
      '    - type: section',
      '      key: section-guides',
      '      title: Guides',
      '      description: How to use it',
      '      icon: book',
      '      path: guides',
      '      default: true',
      '      children:',
      '        - type: space',
      '          key: space-guides',
      '          title: User guide',
      '          path: en',
      '          default: true',
      '          content:',
      '            directory: ./guides',
      '    - type: section',
      '      key: section-api',
      '      title: API',
      '      path: api',
      '      children:',
      '        - type: space',
      '          key: space-api',
      '          title: API reference',
      '          path: reference',
      '          default: true',
      '          content:',
      '            directory: ./api',
      '',
    ].join('\n');
    const files = {
      'gitbook-docs.yaml': siteConfig,
      'guides/SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n',
      'guides/README.md': '# Welcome\n\nHow to use it.\n',
      'api/SUMMARY.md': '# Table of contents\n\n* [API](README.md)\n',
      'api/README.md': '# API\n\nThe endpoints.\n',
    };

    interface StructureBody {
      type: string;
      structure: {
        title: string;
        path: string;
        icon?: string;
        description?: string;
        default: boolean;
        siteSpaces: { path: string; title?: string; default: boolean; space: { id: string } }[];
      }[];
    }

    it("is read into the site's structure as its spaces sync, and written back as it was", async () => {
      const repo = `sync-${++counter}`;
      const url = server.createRepository(repo);
      server.pushFiles(repo, 'refs/heads/main', files);
      const guides = (await t.factories.space(org, { title: 'Guides', empty: true })).id;
      const api = (await t.factories.space(org, { title: 'API reference', empty: true })).id;
      const site = await t.factories.site(org, { spaces: [guides] });
      const sitePath = `/v1/orgs/${org.id}/sites/${site.id}`;

      const first = await operate(guides, 'import', {
        url,
        ref: 'main',
        repoProjectDirectory: 'guides',
      });
      expect(first.warnings).toEqual([
        expect.stringContaining('gitbook-docs.yaml: left out of the site') as unknown,
      ]);
      await operate(api, 'import', { url, ref: 'main', repoProjectDirectory: 'api' });

      const res = await org.owner.client.get(`${sitePath}/structure`).expect(200);
      expectConforms(res, 'getSiteStructure');
      const structure = res.body as StructureBody;
      expect(structure.type).toBe('sections');
      expect(
        structure.structure.map((section) => ({
          title: section.title,
          path: section.path,
          icon: section.icon,
          description: section.description,
          default: section.default,
          siteSpaces: section.siteSpaces.map((siteSpace) => ({
            path: siteSpace.path,
            title: siteSpace.title,
            default: siteSpace.default,
            space: siteSpace.space.id,
          })),
        })),
      ).toEqual([
        {
          title: 'Guides',
          path: 'guides',
          icon: 'book',
          description: 'How to use it',
          default: true,
          siteSpaces: [{ path: 'en', title: 'User guide', default: true, space: guides }],
        },
        {
          title: 'API',
          path: 'api',
          icon: undefined,
          description: undefined,
          default: false,
          siteSpaces: [{ path: 'reference', title: 'API reference', default: true, space: api }],
        },
      ]);
      const siteRes = await org.owner.client.get(sitePath).expect(200);
      expect(siteRes.body.title).toBe('Acme Docs');

      // Both spaces exported into an empty repository: the same file, as it was.
      const copy = `sync-${++counter}`;
      const copyUrl = server.createRepository(copy);
      await operate(guides, 'export', {
        url: copyUrl,
        ref: 'main',
        repoProjectDirectory: 'guides',
      });
      await operate(api, 'export', { url: copyUrl, ref: 'main', repoProjectDirectory: 'api' });
      for (const [path, text] of Object.entries(files)) {
        expect([path, show(copy, path)]).toEqual([path, text]);
      }

      // Changed in Bindery, the file is written anew in GitBook's form, keys kept.
      const section = await org.owner.client.get(`${sitePath}/sections`).expect(200);
      const apiSection = (section.body.items as { id: string; path: string }[]).find(
        (item) => item.path === 'api',
      )!;
      await org.owner.client
        .patch(`${sitePath}/sections/${apiSection.id}`, { title: 'API v2' })
        .expect(200);
      await operate(api, 'export', { url: copyUrl, ref: 'main', repoProjectDirectory: 'api' });
      expect(show(copy, 'gitbook-docs.yaml')).toBe(
        siteConfig.replace('      title: API\n', '      title: API v2\n'),
      );
    });
  });
});
