import type { DocumentBlock, JSONDocument } from '../src/content-engine/documents/document';
import { createTestApp, TestApp } from './helpers/app';
import {
  addReusableContentOnSpace,
  commitOnSpace,
  insertPage,
  storeDocument,
} from './helpers/content';
import { expectConforms, GITBOOK_0202 } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';

/**
 * Content reads by id or path added with GitBook 0.202: a reusable content of the current
 * revision, of a revision and of a change request; a document by its id; a page of a change
 * request by its path.
 */

const paragraph = (text: string, key: string): DocumentBlock => ({
  object: 'block',
  key,
  type: 'paragraph',
  data: {},
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
});

const documentOf = (...nodes: DocumentBlock[]): JSONDocument => ({
  object: 'document',
  data: {},
  nodes,
});

function expectError(res: { status: number; body: unknown }, code: number, text: string) {
  expect(res.status).toBe(code);
  expect(res.body).toEqual({ error: { code, message: expect.stringContaining(text) } });
}

describe('content reads by id', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /**
   * A space with the reusable content `rcNote` (a paragraph) and the empty `rcEmpty`, then a
   * change request opened on it, then `rcLater` added to the space's primary revision only.
   */
  async function spaceWithReusableContents(org: TestOrganization) {
    const space = await t.factories.later.space(org, { empty: true });
    await addReusableContentOnSpace(t, space.id, {
      id: 'rcNote',
      title: 'Note',
      document: documentOf(paragraph('Shared note', 'note')),
    });
    const before = await addReusableContentOnSpace(t, space.id, {
      id: 'rcEmpty',
      title: 'Empty',
      document: null,
    });
    const changeRequest = await t.factories.changeRequest(org, space.id, { subject: 'Draft' });
    const after = await addReusableContentOnSpace(t, space.id, {
      id: 'rcLater',
      title: 'Later',
      document: documentOf(paragraph('Added later', 'later')),
    });
    return { spaceId: space.id, before: before.id, after: after.id, changeRequest };
  }

  describe('getReusableContentById, getReusableContentInRevisionById', () => {
    it("answers a reusable content of the space's revisions, its document by id", async () => {
      const org = await t.factories.organization();
      const { spaceId, before, after } = await spaceWithReusableContents(org);
      const reader = await t.factories.asMember(org, 'read');

      const current = await reader
        .get(`/v1/spaces/${spaceId}/content/reusable-contents/rcLater`)
        .expect(200);
      expectConforms(current, 'getReusableContentById', GITBOOK_0202);
      expect(current.body).toEqual({ id: 'rcLater', title: 'Later', document: expect.any(String) });
      // The id it gives is the document the revision's reusable content has.
      const revision = await reader.get(`/v1/spaces/${spaceId}/content`).expect(200);
      const listed = (revision.body as { reusableContents: { id: string }[] }).reusableContents;
      expect(listed.find((rc) => rc.id === 'rcLater')).toEqual(current.body);
      const document = await reader
        .get(`/v1/spaces/${spaceId}/revisions/${after}/reusable-contents/rcLater/document`)
        .expect(200);
      expect(document.body.nodes[0].key).toBe('later');

      // An empty reusable content has no document.
      const empty = await reader
        .get(`/v1/spaces/${spaceId}/content/reusable-contents/rcEmpty?metadata=false`)
        .expect(200);
      expectConforms(empty, 'getReusableContentById', GITBOOK_0202);
      expect(empty.body).toEqual({ id: 'rcEmpty', title: 'Empty' });

      // A revision answers what it had: rcLater came after `before`.
      const then = await reader
        .get(`/v1/spaces/${spaceId}/revisions/${before}/reusable-contents/rcNote`)
        .expect(200);
      expectConforms(then, 'getReusableContentInRevisionById', GITBOOK_0202);
      expect(then.body).toEqual({ id: 'rcNote', title: 'Note', document: expect.any(String) });
      expectError(
        await reader.get(`/v1/spaces/${spaceId}/revisions/${before}/reusable-contents/rcLater`),
        404,
        'Reusable content not found',
      );
      const now = await reader
        .get(`/v1/spaces/${spaceId}/revisions/${after}/reusable-contents/rcLater`)
        .expect(200);
      expect(now.body).toEqual(current.body);
    });

    it('refuses bad input, unknown ids, strangers and guests', async () => {
      const org = await t.factories.organization();
      const { spaceId, after } = await spaceWithReusableContents(org);
      const owner = org.owner.client;
      const current = `/v1/spaces/${spaceId}/content/reusable-contents/rcNote`;
      const inRevision = `/v1/spaces/${spaceId}/revisions/${after}/reusable-contents/rcNote`;

      expectError(await owner.get(`${current}?metadata=maybe`), 400, 'metadata');
      expectError(await owner.get(`${inRevision}?computed=maybe`), 400, 'computed');
      expectError(
        await owner.get(`/v1/spaces/${spaceId}/content/reusable-contents/nope`),
        404,
        'Reusable content not found',
      );
      expectError(
        await owner.get(`/v1/spaces/${spaceId}/revisions/nope/reusable-contents/rcNote`),
        404,
        'Revision not found',
      );
      expectError(
        await owner.get(`/v1/spaces/nope/content/reusable-contents/rcNote`),
        404,
        'Space not found',
      );
      // Another organization's member, and a guest without access to the space.
      const other = await t.factories.organization();
      const guest = await t.factories.asMember(org, null);
      for (const caller of [other.owner.client, guest]) {
        for (const path of [current, inRevision]) {
          expectError(await caller.get(path), 404, 'Space not found');
        }
      }
      // A revision of another space is not found in this one.
      const elsewhere = await spaceWithReusableContents(org);
      expectError(
        await owner.get(
          `/v1/spaces/${spaceId}/revisions/${elsewhere.after}/reusable-contents/rcNote`,
        ),
        404,
        'Revision not found',
      );
    });
  });

  describe('getReusableContentInChangeRequestById', () => {
    it("answers a reusable content of the change request's head, by id or number", async () => {
      const org = await t.factories.organization();
      const { spaceId, changeRequest } = await spaceWithReusableContents(org);
      const reader = await t.factories.asMember(org, 'read');
      const base = `/v1/spaces/${spaceId}/change-requests`;

      const byId = await reader
        .get(`${base}/${changeRequest.id}/content/reusable-contents/rcNote`)
        .expect(200);
      expectConforms(byId, 'getReusableContentInChangeRequestById', GITBOOK_0202);
      expect(byId.body).toEqual({ id: 'rcNote', title: 'Note', document: expect.any(String) });
      const byNumber = await reader
        .get(`${base}/${changeRequest.number}/content/reusable-contents/rcNote`)
        .expect(200);
      expect(byNumber.body).toEqual(byId.body);
      // rcLater was added to the primary after the change request was opened.
      expectError(
        await reader.get(`${base}/${changeRequest.id}/content/reusable-contents/rcLater`),
        404,
        'Reusable content not found',
      );
      await reader.get(`/v1/spaces/${spaceId}/content/reusable-contents/rcLater`).expect(200);
    });

    it('refuses bad input, unknown ids, strangers and guests', async () => {
      const org = await t.factories.organization();
      const { spaceId, changeRequest } = await spaceWithReusableContents(org);
      const owner = org.owner.client;
      const path = `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/content/reusable-contents/rcNote`;

      expectError(await owner.get(`${path}?metadata=1`), 400, 'metadata');
      expectError(
        await owner.get(
          `/v1/spaces/${spaceId}/change-requests/999/content/reusable-contents/rcNote`,
        ),
        404,
        'Change request not found',
      );
      const other = await t.factories.organization();
      const guest = await t.factories.asMember(org, null);
      for (const caller of [other.owner.client, guest]) {
        expectError(await caller.get(path), 404, 'Space not found');
      }
    });
  });

  describe('getDocumentById', () => {
    /** A space with the page pgGuide (GUIDE) and the reusable content rcNote. */
    async function guide(org: TestOrganization) {
      const space = await t.factories.later.space(org, { empty: true });
      const document = await storeDocument(t, documentOf(paragraph('The guide', 'guide')));
      await commitOnSpace(t, space.id, [
        { operation: 'insert_page', id: 'pgGuide', meta: { title: 'Guide' }, document },
      ]);
      await addReusableContentOnSpace(t, space.id, {
        id: 'rcNote',
        title: 'Note',
        document: documentOf(paragraph('Shared note', 'note')),
      });
      return { spaceId: space.id, document };
    }

    it("answers a document of the primary's pages and reusable contents by its id", async () => {
      const org = await t.factories.organization();
      const { spaceId } = await guide(org);
      const reader = await t.factories.asMember(org, 'read');

      const page = await reader.get(`/v1/spaces/${spaceId}/content/page/pgGuide`).expect(200);
      const documentId = page.body.documentId as string;
      const res = await reader.get(`/v1/spaces/${spaceId}/documents/${documentId}`).expect(200);
      expectConforms(res, 'getDocumentById', GITBOOK_0202);
      expect(res.body).toEqual(page.body.document);
      expect(res.body.nodes[0].key).toBe('guide');

      const rc = await reader
        .get(`/v1/spaces/${spaceId}/content/reusable-contents/rcNote`)
        .expect(200);
      const note = await reader
        .get(`/v1/spaces/${spaceId}/documents/${rc.body.document}?schema=next`)
        .expect(200);
      expectConforms(note, 'getDocumentById', GITBOOK_0202);
      expect(note.body.nodes[0].key).toBe('note');
    });

    it("answers a document of an open change request's head, not one only of an older revision", async () => {
      const org = await t.factories.organization();
      const { spaceId } = await guide(org);
      const owner = org.owner.client;
      const before = await owner.get(`/v1/spaces/${spaceId}/content/page/pgGuide`).expect(200);

      const changeRequest = await t.factories.changeRequest(org, spaceId, {
        changes: [insertPage('Draft page', 'Only in the draft.')],
      });
      const drafted = await owner
        .get(`/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/content/pages`)
        .expect(200);
      const draftPage = (
        drafted.body.pages as { title: string; id: string; documentId?: string }[]
      ).find((p) => p.title === 'Draft page')!;
      expect(draftPage.documentId).toEqual(expect.any(String));
      const draft = await owner
        .get(`/v1/spaces/${spaceId}/documents/${draftPage.documentId}`)
        .expect(200);
      expect(JSON.stringify(draft.body)).toContain('Only in the draft.');

      // Once the change request is archived, its documents are no longer the space's.
      await owner
        .patch(`/v1/spaces/${spaceId}/change-requests/${changeRequest.id}`, { status: 'archived' })
        .expect(200);
      expectError(
        await owner.get(`/v1/spaces/${spaceId}/documents/${draftPage.documentId}`),
        404,
        'Document not found',
      );

      // The guide rewritten: its former document is only in an older revision.
      const rewritten = await storeDocument(t, documentOf(paragraph('Guide, v2', 'guide-2')));
      await commitOnSpace(t, spaceId, [
        { operation: 'set_document', page: 'pgGuide', document: rewritten },
      ]);
      expectError(
        await owner.get(`/v1/spaces/${spaceId}/documents/${before.body.documentId}`),
        404,
        'Document not found',
      );
      const now = await owner.get(`/v1/spaces/${spaceId}/documents/${rewritten}`).expect(200);
      expect(now.body.nodes[0].key).toBe('guide-2');
    });

    it('refuses bad input, unknown ids, other spaces, strangers and guests', async () => {
      const org = await t.factories.organization();
      const { spaceId, document } = await guide(org);
      const owner = org.owner.client;
      const path = `/v1/spaces/${spaceId}/documents/${document}`;
      await owner.get(path).expect(200);

      expectError(await owner.get(`${path}?schema=old`), 400, 'schema');
      expectError(
        await owner.get(`/v1/spaces/${spaceId}/documents/${'0'.repeat(64)}`),
        404,
        'Document not found',
      );
      expectError(await owner.get(`/v1/spaces/nope/documents/${document}`), 404, 'Space not found');
      // Another space of the organization does not have it.
      const elsewhere = await t.factories.later.space(org, { empty: true });
      expectError(
        await owner.get(`/v1/spaces/${elsewhere.id}/documents/${document}`),
        404,
        'Document not found',
      );
      const other = await t.factories.organization();
      const guest = await t.factories.asMember(org, null);
      for (const caller of [other.owner.client, guest]) {
        expectError(await caller.get(path), 404, 'Space not found');
      }
    });
  });

  describe('getPageInChangeRequestByPath', () => {
    it("answers a page of the change request's head by its path, in either format", async () => {
      const org = await t.factories.organization();
      const space = await t.factories.later.space(org, { empty: true });
      const document = await storeDocument(t, documentOf(paragraph('Install it', 'install')));
      await commitOnSpace(t, space.id, [
        { operation: 'insert_page', id: 'pgRef', type: 'group', meta: { title: 'Reference' } },
        {
          operation: 'insert_page',
          id: 'pgInstall',
          meta: { title: 'Install' },
          document,
          into: 'pgRef',
        },
      ]);
      const changeRequest = await t.factories.changeRequest(org, space.id, {
        changes: [insertPage('Upgrade', 'Run the upgrade.')],
      });
      const reader = await t.factories.asMember(org, 'read');
      const base = `/v1/spaces/${space.id}/change-requests/${changeRequest.number}/content/path`;

      const upgrade = await reader.get(`${base}/upgrade`).expect(200);
      expectConforms(upgrade, 'getPageInChangeRequestByPath', GITBOOK_0202);
      expect(upgrade.body).toMatchObject({ type: 'document', title: 'Upgrade', path: 'upgrade' });
      expect(JSON.stringify(upgrade.body.document)).toContain('Run the upgrade.');
      // Its URL points into the change request.
      expect(upgrade.body.urls.app).toContain(`/~/changes/${changeRequest.number}/upgrade`);
      // The page is the change request's only: the primary has none at that path.
      expectError(
        await reader.get(`/v1/spaces/${space.id}/content/path/upgrade`),
        404,
        'Page not found',
      );

      const nested = await reader.get(`${base}/reference/install?format=markdown`).expect(200);
      expectConforms(nested, 'getPageInChangeRequestByPath', GITBOOK_0202);
      expect(nested.body).toMatchObject({ id: 'pgInstall', path: 'reference/install' });
      expect(nested.body.markdown).toContain('Install it');
      const group = await reader.get(`${base}/reference`).expect(200);
      expectConforms(group, 'getPageInChangeRequestByPath', GITBOOK_0202);
      expect(group.body).toMatchObject({ type: 'group', id: 'pgRef' });
      // The same page by id.
      const byId = await reader
        .get(`/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content/page/pgInstall`)
        .expect(200);
      const again = await reader.get(`${base}/reference/install`).expect(200);
      expect(again.body).toEqual(byId.body);
    });

    it('refuses bad input, unknown paths, strangers and guests', async () => {
      const org = await t.factories.organization();
      const space = await t.factories.later.space(org, { empty: true });
      const changeRequest = await t.factories.changeRequest(org, space.id, {
        changes: [insertPage('Upgrade', 'Run the upgrade.')],
      });
      const owner = org.owner.client;
      const base = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content/path`;
      await owner.get(`${base}/upgrade`).expect(200);

      expectError(await owner.get(`${base}/upgrade?format=pdf`), 400, 'format');
      expectError(await owner.get(`${base}/upgrade?dereferenced=all`), 400, 'dereferenced');
      expectError(await owner.get(`${base}/nowhere`), 404, 'Page not found');
      expectError(await owner.get(`${base}/upgrade/deeper`), 404, 'Page not found');
      expectError(
        await owner.get(`/v1/spaces/${space.id}/change-requests/999/content/path/upgrade`),
        404,
        'Change request not found',
      );
      const other = await t.factories.organization();
      const guest = await t.factories.asMember(org, null);
      for (const caller of [other.owner.client, guest]) {
        expectError(await caller.get(`${base}/upgrade`), 404, 'Space not found');
      }
    });
  });
});
