import type { DocumentBlock, JSONDocument } from '../src/content-engine/documents/document';
import { createTestApp, TestApp } from './helpers/app';
import { addReusableContentOnSpace, commitOnSpace, storeDocument } from './helpers/content';
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
});
