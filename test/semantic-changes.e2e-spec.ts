import { createTestApp, TestApp } from './helpers/app';
import type { ChangeRequestBody, SpaceBody } from './helpers/bodies';
import type { Client } from './helpers/client';
import { expectConforms, GITBOOK_0201 } from './helpers/conformance';
import { addReusableContentOnSpace, commitOnSpace, changeRequestPath } from './helpers/content';
import { expectError } from './helpers/content-grants';
import type { TestOrganization } from './helpers/factories';

interface ChangedPage {
  id: string;
  type: string;
  title: string;
  path?: string;
}

interface SemanticChange {
  type: string;
  page?: ChangedPage;
  attributes?: Record<string, { before?: unknown; after?: unknown }>;
  parent?: { before?: ChangedPage; after?: ChangedPage };
  file?: { id: string; name: string; contentType: string; downloadURL: string };
}

interface SemanticChanges {
  mergedFrom?: ChangeRequestBody;
  changes: SemanticChange[];
  more: number;
}

interface Written {
  changeRequest: ChangeRequestBody;
  changes: { object: string; ref?: string; page: { id: string } }[];
  insertedFiles: { id: string; name: string }[];
}

/** `type title` per change, with where a moved page went and what an edit changed. */
function outline(body: SemanticChanges): string[] {
  return body.changes.map((change) => {
    const name = change.page?.title ?? change.file?.name;
    if (change.type === 'page_moved') {
      const { before, after } = change.parent!;
      return `${change.type} ${name}: ${before?.title ?? '(top)'} > ${after?.title ?? '(top)'}`;
    }
    const attributes = change.attributes ? ` [${Object.keys(change.attributes).join(',')}]` : '';
    return `${change.type} ${name}${attributes}`;
  });
}

/** getChangeRequestChanges and getRevisionSemanticChanges: what a change request or a revision changes. */
describe('semantic changes', () => {
  let t: TestApp;
  let org: TestOrganization;
  let owner: Client;

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.factories.organization();
    owner = org.owner.client;
  });
  afterAll(() => t.close());

  const crChanges = (spaceId: string, cr: string | number) =>
    `${changeRequestPath(spaceId, cr)}/changes`;
  const revisionChanges = (spaceId: string, revision: string) =>
    `/v1/spaces/${spaceId}/revisions/${revision}/changes`;

  /** Writes `changes` into the change request; answers what the write made. */
  async function write(spaceId: string, cr: string, changes: object[]): Promise<Written> {
    const res = await owner.post(`${changeRequestPath(spaceId, cr)}/content?compat=false`, {
      changes,
    });
    expect(res.body).not.toHaveProperty('error');
    return res.body as Written;
  }

  async function newChangeRequest(spaceId: string): Promise<ChangeRequestBody> {
    return (await owner.post(changeRequestPath(spaceId), {}).expect(201)).body as ChangeRequestBody;
  }

  /**
   * A space whose primary has Guides (with Install under it), Setup (a body) and Old, merged
   * from a first change request; answers their ids.
   */
  async function handbook() {
    const space = await t.factories.space(org, { title: 'Handbook' });
    const first = await newChangeRequest(space.id);
    const written = await write(space.id, first.id, [
      { operation: 'insert_page', title: 'Guides', document: {} },
      { operation: 'insert_page', title: 'Setup', document: { markdown: 'Old.' } },
      { operation: 'insert_page', title: 'Old', document: {} },
    ]);
    const [guides, setup, old] = written.changes.map((change) => change.page.id);
    const below = await write(space.id, first.id, [
      { operation: 'insert_page', title: 'Install', into: guides, document: {} },
    ]);
    const install = below.changes[0].page.id;
    await owner.post(`${changeRequestPath(space.id, first.id)}/merge`, {}).expect(200);
    return { spaceId: space.id, first, ids: { guides, install, setup, old } };
  }

  describe('getChangeRequestChanges', () => {
    it('lists pages created, edited, renamed, moved and deleted against the merge base', async () => {
      const { spaceId, ids } = await handbook();
      const cr = await newChangeRequest(spaceId);
      await write(spaceId, cr.id, [
        { operation: 'insert_page', title: 'New', document: {} },
        { operation: 'update_page', page: ids.setup, document: { markdown: 'New body.' } },
        { operation: 'delete_page', page: ids.old },
        { operation: 'update_page', page: ids.install, into: null },
        { operation: 'update_page', page: ids.guides, title: 'Manual' },
      ]);

      const res = await owner.get(crChanges(spaceId, cr.number)).expect(200);
      expectConforms(res, 'getChangeRequestChanges', GITBOOK_0201);
      const body = res.body as SemanticChanges;
      expect(outline(body)).toEqual([
        'page_edited Manual [title]',
        'page_edited Setup [document]',
        'page_moved Install: Guides > (top)',
        'page_created New',
        'page_deleted Old',
      ]);
      expect(body.more).toBe(0);
      expect(body).not.toHaveProperty('mergedFrom');
      const [renamed, edited, moved] = body.changes;
      expect(renamed).toEqual({
        type: 'page_edited',
        // A new title keeps the page's slug (and its path).
        page: { id: ids.guides, type: 'document', title: 'Manual', path: 'guides' },
        attributes: { title: { before: 'Guides', after: 'Manual' } },
      });
      // The document attribute names the page's documents (their ids) before and after.
      const { before, after } = edited.attributes!.document;
      expect(typeof before).toBe('string');
      expect(typeof after).toBe('string');
      expect(before).not.toBe(after);
      // The parent it left, as it was then.
      expect(moved.parent).toEqual({
        before: { id: ids.guides, type: 'document', title: 'Guides', path: 'guides' },
      });
      expect(moved.page).toMatchObject({ id: ids.install, path: 'install' });
    });

    it('compares with the primary the change request was last updated from', async () => {
      const { spaceId, ids } = await handbook();
      const cr = await newChangeRequest(spaceId);
      await write(spaceId, cr.id, [{ operation: 'update_page', page: ids.old, title: 'Older' }]);
      // The primary moves on; updating the change request brings that in without listing it.
      const other = await newChangeRequest(spaceId);
      await write(spaceId, other.id, [{ operation: 'insert_page', title: 'Other', document: {} }]);
      await owner.post(`${changeRequestPath(spaceId, other.id)}/merge`, {}).expect(200);
      await owner.post(`${changeRequestPath(spaceId, cr.id)}/update`, {}).expect(200);

      const res = await owner.get(crChanges(spaceId, cr.id)).expect(200);
      expectConforms(res, 'getChangeRequestChanges', GITBOOK_0201);
      expect(outline(res.body as SemanticChanges)).toEqual(['page_edited Older [title]']);
    });

    it('lists files added, and nothing for a change request without changes', async () => {
      const { spaceId } = await handbook();
      const cr = await newChangeRequest(spaceId);
      const empty = await owner.get(crChanges(spaceId, cr.id)).expect(200);
      expectConforms(empty, 'getChangeRequestChanges', GITBOOK_0201);
      expect(empty.body).toEqual({ changes: [], more: 0 });

      await write(spaceId, cr.id, [
        {
          operation: 'insert_files',
          files: [
            {
              name: 'notes.txt',
              contentType: 'text/plain',
              base64: Buffer.from('Notes').toString('base64'),
            },
          ],
        },
      ]);
      const res = await owner.get(crChanges(spaceId, cr.id)).expect(200);
      expectConforms(res, 'getChangeRequestChanges', GITBOOK_0201);
      const [change] = (res.body as SemanticChanges).changes;
      expect(change).toMatchObject({
        type: 'file_created',
        file: { name: 'notes.txt', contentType: 'text/plain' },
      });
      // The URL downloads the file's bytes.
      const url = new URL(change.file!.downloadURL);
      const download = await owner.get(`${url.pathname}${url.search}`).expect(200);
      expect(download.text ?? String(download.body)).toBe('Notes');
    });

    it('lists the first `limit` changes and counts the others in `more` (10 by default)', async () => {
      const space = await t.factories.space(org);
      const cr = await newChangeRequest(space.id);
      const titles = Array.from({ length: 12 }, (_, i) => `Page ${i + 1}`);
      await write(
        space.id,
        cr.id,
        titles.map((title) => ({ operation: 'insert_page', title, document: {} })),
      );

      const limited = await owner.get(`${crChanges(space.id, cr.id)}?limit=5`).expect(200);
      expectConforms(limited, 'getChangeRequestChanges', GITBOOK_0201);
      expect(outline(limited.body as SemanticChanges)).toEqual(
        titles.slice(0, 5).map((title) => `page_created ${title}`),
      );
      expect((limited.body as SemanticChanges).more).toBe(7);

      const byDefault = (await owner.get(crChanges(space.id, cr.id)).expect(200))
        .body as SemanticChanges;
      expect(byDefault.changes).toHaveLength(10);
      expect(byDefault.more).toBe(2);
    });

    it('refuses a bad limit', async () => {
      const space = await t.factories.space(org);
      const cr = await newChangeRequest(space.id);
      for (const limit of ['0', 'many', '1.5', '1001']) {
        const res = await owner.get(`${crChanges(space.id, cr.id)}?limit=${limit}`);
        expectError(res, 400, 'limit');
      }
    });

    it('answers 404 for an unknown change request, another space, another organization', async () => {
      const { spaceId } = await handbook();
      const cr = await newChangeRequest(spaceId);
      expectError(await owner.get(crChanges(spaceId, 'nope')), 404, 'Change request');
      expectError(await owner.get(crChanges(spaceId, 99)), 404, 'Change request');
      const elsewhere = await t.factories.space(org);
      expectError(await owner.get(crChanges(elsewhere.id, cr.id)), 404, 'Change request');

      const stranger = await t.factories.organization();
      const res = await stranger.owner.client.get(crChanges(spaceId, cr.id));
      expectError(res, 404, 'not found');
    });

    it('needs only view access: a reader sees the changes, a guest without a grant gets 404', async () => {
      const { spaceId } = await handbook();
      const cr = await newChangeRequest(spaceId);
      await write(spaceId, cr.id, [{ operation: 'insert_page', title: 'New', document: {} }]);
      const reader = await t.factories.asMember(org, 'read');
      const res = await reader.get(crChanges(spaceId, cr.id)).expect(200);
      expect(outline(res.body as SemanticChanges)).toEqual(['page_created New']);
      // A read needs only view access; who may not view the space cannot see it: 404, not 403.
      const guest = await t.factories.asMember(org, null);
      expectError(await guest.get(crChanges(spaceId, cr.id)), 404, 'not found');
    });
  });

  describe('getRevisionSemanticChanges', () => {
    it('shows on a merge revision the change request it merged, and its changes', async () => {
      const { spaceId, first } = await handbook();
      const space = (await owner.get(`/v1/spaces/${spaceId}`).expect(200)).body as SpaceBody;

      const res = await owner.get(revisionChanges(spaceId, space.revision)).expect(200);
      expectConforms(res, 'getRevisionSemanticChanges', GITBOOK_0201);
      const body = res.body as SemanticChanges;
      expect(body.mergedFrom).toMatchObject({
        object: 'change-request',
        id: first.id,
        status: 'merged',
        revisionMerged: space.revision,
      });
      expect(outline(body)).toEqual([
        'page_created Guides',
        'page_created Setup',
        'page_created Old',
        'page_created Install',
      ]);
    });

    it("lists a space's first revision against nothing, and files deleted", async () => {
      const space = await t.factories.space(org);
      const initial = await owner
        .get(`${revisionChanges(space.id, space.revision)}?metadata=false&computed=false`)
        .expect(200);
      expectConforms(initial, 'getRevisionSemanticChanges', GITBOOK_0201);
      expect(outline(initial.body as SemanticChanges)).toEqual(['page_created Untitled']);

      const cr = await newChangeRequest(space.id);
      const written = await write(space.id, cr.id, [
        {
          operation: 'insert_files',
          files: [{ name: 'a.txt', contentType: 'text/plain', base64: 'QQ==' }],
        },
      ]);
      await owner.post(`${changeRequestPath(space.id, cr.id)}/merge`, {}).expect(200);
      // Bindery's API deletes files only through Git and merges: delete it through the engine.
      const deleted = await commitOnSpace(t, space.id, [
        { operation: 'delete_file', file: written.insertedFiles[0].id },
      ]);
      const res = await owner.get(revisionChanges(space.id, deleted.id)).expect(200);
      expectConforms(res, 'getRevisionSemanticChanges', GITBOOK_0201);
      expect(res.body).toMatchObject({
        changes: [{ type: 'file_deleted', file: { id: written.insertedFiles[0].id } }],
        more: 0,
      });
      expect(res.body).not.toHaveProperty('mergedFrom');
    });

    it('lists a reusable content added', async () => {
      const space = await t.factories.space(org);
      // Bindery has no API that writes reusable contents yet: add one through the engine.
      const revision = await addReusableContentOnSpace(t, space.id, {
        id: 'rc-terms',
        title: 'Terms',
        document: { object: 'document', data: {}, nodes: [] },
      });
      const res = await owner.get(revisionChanges(space.id, revision.id)).expect(200);
      expectConforms(res, 'getRevisionSemanticChanges', GITBOOK_0201);
      expect(res.body).toEqual({
        changes: [
          {
            type: 'reusable_content_created',
            reusableContent: { id: 'rc-terms', title: 'Terms', document: expect.any(String) },
          },
        ],
        more: 0,
      });
    });

    it('answers 400 for bad parameters and 404 for an unknown revision or another space', async () => {
      const space = await t.factories.space(org);
      expectError(
        await owner.get(`${revisionChanges(space.id, space.revision)}?limit=-1`),
        400,
        'limit',
      );
      expectError(
        await owner.get(`${revisionChanges(space.id, space.revision)}?metadata=maybe`),
        400,
        'metadata',
      );
      expectError(await owner.get(revisionChanges(space.id, 'nope')), 404, 'Revision');
      const other = await t.factories.space(org);
      expectError(await owner.get(revisionChanges(other.id, space.revision)), 404, 'Revision');
      const stranger = await t.factories.organization();
      expectError(
        await stranger.owner.client.get(revisionChanges(space.id, space.revision)),
        404,
        'not found',
      );
      const guest = await t.factories.asMember(org, null);
      expectError(await guest.get(revisionChanges(space.id, space.revision)), 404, 'not found');
    });
  });
});
