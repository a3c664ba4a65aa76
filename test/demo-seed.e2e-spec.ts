import type { JSONDocument } from '../src/content-engine/documents/document';
import { DEMO_IMAGE_NAME, DemoSeed } from '../src/seed/demo-seed.service';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { expectConforms } from './helpers/conformance';

describe('demo seed (SEED_DEMO on an empty database)', () => {
  let t: TestApp;
  let demo: Client;
  beforeAll(async () => {
    t = await createTestApp({ SEED_DEMO: 'true' });
    demo = t.as(t.bindery.demo!.token);
  });
  afterAll(() => t.close());

  it('makes a demo user, whose token works, admin of a demo organization', async () => {
    const seeded = t.bindery.demo!;
    expect(seeded.userEmail).toBe('demo@bindery.local');
    const res = await demo.get(`/v1/orgs/${seeded.organizationId}`).expect(200);
    expectConforms(res, 'getOrganizationById');
    expect(res.body).toEqual(
      expect.objectContaining({ id: seeded.organizationId, title: 'Demo Organization' }),
    );
    expect(res.body.permissions.admin).toBe(true);
  });

  it('gives the demo organization one space, "Getting started", readable with the demo token', async () => {
    const { organizationId, spaceId } = t.bindery.demo!;
    const list = await demo.get(`/v1/orgs/${organizationId}/spaces`).expect(200);
    expectConforms(list, 'listSpacesInOrganizationById');
    expect(list.body.items.map((space: { id: string }) => space.id)).toEqual([spaceId]);

    const res = await demo.get(`/v1/spaces/${spaceId}`).expect(200);
    expectConforms(res, 'getSpaceById');
    expect(res.body).toEqual(
      expect.objectContaining({
        object: 'space',
        id: spaceId,
        title: 'Getting started',
        organization: organizationId,
        visibility: 'private',
      }),
    );
    expect(res.body.parent).toBeUndefined();
    expect(res.body.permissions.admin).toBe(true);

    // Made by the same use case as createSpace (an empty first revision), then its pages.
    const revisions: { id: string }[] = await t.dataSource.query(
      'SELECT id FROM revisions WHERE space_id = $1 ORDER BY created_at, id',
      [spaceId],
    );
    expect(revisions).toHaveLength(2);
    expect(revisions.map((revision) => revision.id)).toContain(res.body.revision);
  });

  describe("the demo space's content", () => {
    interface PageBody {
      id: string;
      title: string;
      kind?: string;
      document?: JSONDocument;
    }
    interface FileBody {
      id: string;
      name: string;
      contentType: string;
      dimensions?: { width: number; height: number };
      downloadURL: string;
    }
    const content = () => demo.get(`/v1/spaces/${t.bindery.demo!.spaceId}/content`).expect(200);
    const pageById = async (pageId: string) => {
      const res = await demo
        .get(`/v1/spaces/${t.bindery.demo!.spaceId}/content/page/${pageId}`)
        .expect(200);
      expectConforms(res, 'getPageById');
      return res.body as PageBody;
    };
    /** Every node of a document (blocks, inlines, texts), depth first. */
    const nodesOf = (node: unknown): Record<string, unknown>[] => {
      if (typeof node !== 'object' || node === null) return [];
      const children = (node as { nodes?: unknown[] }).nodes ?? [];
      return [node as Record<string, unknown>, ...children.flatMap(nodesOf)];
    };
    const refsOf = (document: JSONDocument) =>
      nodesOf(document).flatMap((node) => {
        const ref = (node.data as { ref?: Record<string, string> } | undefined)?.ref;
        return ref ? [{ type: node.type as string, ref }] : [];
      });

    it('has a welcome page and pages on change requests and publishing, no "Untitled"', async () => {
      const res = await content();
      expectConforms(res, 'getCurrentRevision');
      const pages = res.body.pages as PageBody[];
      expect(pages.map((page) => page.title)).toEqual([
        'Welcome to Bindery',
        'Change requests',
        'Publishing a site',
      ]);
    });

    it('shows what the API does on the welcome page: headings, a list, a curl call, links', async () => {
      const [welcome, changeRequests, publishing] = (await content()).body.pages as PageBody[];
      const page = await pageById(welcome.id);
      const nodes = nodesOf(page.document);
      const types = nodes.map((node) => node.type);
      expect(types).toEqual(
        expect.arrayContaining(['heading-2', 'list-unordered', 'code', 'images']),
      );
      const text = JSON.stringify(page.document);
      expect(text).toContain('curl -H');
      expect(text).toContain(`/v1/spaces/${t.bindery.demo!.spaceId}/content`);
      // No secret in content: commands use $TOKEN.
      expect(text).not.toContain(t.bindery.demo!.token);

      const refs = refsOf(page.document!);
      expect(refs).toEqual(
        expect.arrayContaining([
          { type: 'link', ref: { kind: 'page', page: changeRequests.id } },
          { type: 'link', ref: { kind: 'page', page: publishing.id } },
          { type: 'link', ref: { kind: 'url', url: `${TEST_PUBLIC_URL}/docs` } },
        ]),
      );
      // The other pages link back.
      for (const other of [changeRequests, publishing]) {
        const read = await pageById(other.id);
        expect(refsOf(read.document!)).toContainEqual({
          type: 'link',
          ref: { kind: 'page', page: welcome.id },
        });
      }
    });

    it('shows an image uploaded to the space on the welcome page', async () => {
      const res = await content();
      const files = res.body.files as FileBody[];
      expect(files).toEqual([
        expect.objectContaining({
          name: DEMO_IMAGE_NAME,
          contentType: 'image/png',
          dimensions: { width: 480, height: 160 },
        }),
      ]);
      const welcome = await pageById((res.body.pages as PageBody[])[0].id);
      const images = nodesOf(welcome.document).filter((node) => node.type === 'image');
      expect(images.map((node) => (node.data as { ref: unknown }).ref)).toEqual([
        { kind: 'file', file: files[0].id },
      ]);

      const listed = await demo
        .get(`/v1/spaces/${t.bindery.demo!.spaceId}/content/files`)
        .expect(200);
      expectConforms(listed, 'listFiles');
      const download = await t.anonymous
        .get(files[0].downloadURL.slice(TEST_PUBLIC_URL.length))
        .buffer(true)
        .parse((response, done) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => done(null, Buffer.concat(chunks)));
        })
        .expect(200);
      expect((download.body as Buffer).subarray(1, 4).toString('ascii')).toBe('PNG');
    });

    it('reads every page back as markdown', async () => {
      for (const page of (await content()).body.pages as PageBody[]) {
        const res = await demo
          .get(`/v1/spaces/${t.bindery.demo!.spaceId}/content/page/${page.id}?format=markdown`)
          .expect(200);
        expect(typeof res.body.markdown).toBe('string');
        expect(res.body.markdown.length).toBeGreaterThan(100);
      }
    });
  });

  it('counts the space in the demo member', async () => {
    const { organizationId } = t.bindery.demo!;
    const members = await demo.get(`/v1/orgs/${organizationId}/members`).expect(200);
    expect(members.body.items).toEqual([expect.objectContaining({ spaces: 1 })]);
  });

  it('does nothing once a user exists', async () => {
    expect(await t.bindery.app.get(DemoSeed).run()).toBeUndefined();
    const [{ n }] = await t.dataSource.query('SELECT count(*)::int AS n FROM spaces');
    expect(n).toBe(1);
  });
});
