import { createTestApp, TestApp } from './helpers/app';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';
import { gitHttpBackend, startGitServer, type GitServer } from './helpers/git-server';

/**
 * Markdown files SUMMARY.md does not list, against a real Git server: an import makes them
 * hidden pages (under the page of their folder's README.md, else at the end of the top level)
 * and says so in the operation's warnings; an export leaves their files as they are.
 */

// As in test/git.e2e-spec.ts: without git the file fails, unless BINDERY_TEST_SKIP_GIT=1.
const skipGit = process.env.BINDERY_TEST_SKIP_GIT === '1';
const backend = skipGit ? undefined : gitHttpBackend();
if (!skipGit && !backend) {
  throw new Error(
    'test/git-orphans.e2e-spec.ts needs the git command line with git http-backend. Install ' +
      'git, or set BINDERY_TEST_SKIP_GIT=1 to skip the Git tests on purpose.',
  );
}
const describeWithGit = backend ? describe : describe.skip;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface GitInfo {
  lastOperation: { kind: string; status: string; error?: string; warnings?: string[] };
}

interface ApiPage {
  id: string;
  title: string;
  slug?: string;
  type: string;
  hidden?: boolean;
  git?: { oid: string; path: string };
  pages: ApiPage[];
}

describeWithGit('Git import of markdown files SUMMARY.md does not list', () => {
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
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await org.owner.client.get(gitPath(spaceId, 'info')).expect(200);
      expectConforms(res, 'getSpaceGitInfo');
      const info = res.body as GitInfo;
      if (!['pending', 'running'].includes(info.lastOperation.status)) return info;
      if (Date.now() > deadline)
        throw new Error(`Git operation still ${info.lastOperation.status}`);
      await sleep(100);
    }
  }

  async function operate(
    spaceId: string,
    op: 'import' | 'export',
    body: Record<string, unknown>,
  ): Promise<GitInfo> {
    await org.owner.client.post(gitPath(spaceId, op), body).expect(204);
    return settled(spaceId);
  }

  async function pages(spaceId: string): Promise<ApiPage[]> {
    const res = await org.owner.client.get(`/v1/spaces/${spaceId}/content`).expect(200);
    expectConforms(res, 'getCurrentRevision');
    return res.body.pages as ApiPage[];
  }

  function outline(list: ApiPage[]): unknown[] {
    return list.map((page) => ({
      title: page.title,
      slug: page.slug,
      ...(page.hidden ? { hidden: true } : {}),
      path: page.git?.path,
      pages: outline(page.pages ?? []),
    }));
  }

  /** A page's body as markdown (without the title heading `format=markdown` starts with). */
  async function markdown(spaceId: string, pageId: string): Promise<string> {
    const res = await org.owner.client
      .get(`/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`)
      .expect(200);
    return (res.body.markdown as string).replace(/^# .*\n/, '').trim();
  }

  const repository = {
    'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n',
    'README.md': '# Home\n\nWelcome.\n',
    'guide/README.md': '# Guide\n\nThe guide.\n',
    'guide/extra.md': '# Extra\n\nMore of the guide, see [the orphan](../orphan.md).\n',
    'orphan.md': '# Orphan\n\nNot in the summary.\n',
    'notes/deep.md': '# Deep\n\nIn a folder without README.md, see [the orphan](../orphan.md).\n',
    '.gitbook/assets/notes.md': 'an asset, not a page',
  };

  it('imports them as hidden pages at their folder README page, else at the end', async () => {
    const repo = `orphans-${++counter}`;
    const url = server.createRepository(repo);
    server.pushFiles(repo, 'refs/heads/main', repository);
    const spaceId = (await t.factories.space(org, { title: 'Orphans', empty: true })).id;
    const info = await operate(spaceId, 'import', { url, ref: 'main' });
    expect(info.lastOperation).toMatchObject({
      status: 'complete',
      warnings: [
        'Imported as hidden pages, not listed in the summary: guide/extra.md, notes/deep.md, orphan.md.',
      ],
    });
    const tree = await pages(spaceId);
    expect(outline(tree)).toEqual([
      { title: 'Home', slug: 'home', path: 'README.md', pages: [] },
      {
        title: 'Guide',
        slug: 'guide',
        path: 'guide/README.md',
        pages: [{ title: 'Extra', slug: 'extra', hidden: true, path: 'guide/extra.md', pages: [] }],
      },
      { title: 'Deep', slug: 'deep', hidden: true, path: 'notes/deep.md', pages: [] },
      { title: 'Orphan', slug: 'orphan', hidden: true, path: 'orphan.md', pages: [] },
    ]);
    const [, guide, deep, orphan] = tree;
    expect(await markdown(spaceId, orphan.id)).toBe('Not in the summary.');
    // Links between orphans and other pages resolve like any other.
    const extra = await org.owner.client
      .get(`/v1/spaces/${spaceId}/content/page/${guide.pages[0].id}`)
      .expect(200);
    expect(JSON.stringify(extra.body.document)).toContain(`"page":"${orphan.id}"`);
    const files = (await org.owner.client.get(`/v1/spaces/${spaceId}/content`).expect(200)).body
      .files as { name: string }[];
    expect(files.map((file) => file.name)).toEqual(['notes.md']);
    // Markdown reads place the page where its file is, as an export does.
    expect(await markdown(spaceId, deep.id)).toBe(
      'In a folder without README.md, see [the orphan](../orphan.md).',
    );
  });

  it('import then export leaves them, and every other file, as the repository has them', async () => {
    const repo = `orphans-${++counter}`;
    const url = server.createRepository(repo);
    const head = server.pushFiles(repo, 'refs/heads/main', repository);
    const spaceId = (await t.factories.space(org, { title: 'Round trip', empty: true })).id;
    expect((await operate(spaceId, 'import', { url, ref: 'main' })).lastOperation.status).toBe(
      'complete',
    );
    const exported = await operate(spaceId, 'export', {
      url,
      ref: 'main',
      commitMessage: 'Export',
    });
    expect(exported.lastOperation).toMatchObject({
      kind: 'export',
      status: 'complete',
      commit: head,
    });
    // Nothing changed in the space: no commit, the orphans stay out of the summary.
    expect(server.git(repo, 'rev-parse', 'main').trim()).toBe(head);

    // A page added beside an orphan is written; the orphans still are not touched.
    const tree = await pages(spaceId);
    const guide = tree[1];
    await t.factories.changeRequest(org, spaceId, {
      changes: [
        {
          operation: 'insert_page',
          title: 'Next',
          into: guide.id,
          document: { markdown: 'Then.' },
        },
      ],
      merge: true,
    });
    await operate(spaceId, 'export', { url, ref: 'main', commitMessage: 'Add a page' });
    const changed = server.git(repo, 'diff', '--name-only', 'main~1', 'main').trim().split('\n');
    expect(changed).toEqual(['SUMMARY.md', 'guide/next.md']);
    const show = (path: string) => server.git(repo, 'show', `main:${path}`);
    expect(show('orphan.md')).toBe(repository['orphan.md']);
    expect(show('guide/extra.md')).toBe(repository['guide/extra.md']);
    expect(show('SUMMARY.md')).not.toContain('orphan.md');

    // Reading the export back gives the same tree, orphans still hidden.
    const before = outline(await pages(spaceId));
    const again = await operate(spaceId, 'import', { url, ref: 'main' });
    expect(again.lastOperation.status).toBe('complete');
    expect(outline(await pages(spaceId))).toEqual(before);
  });
});
