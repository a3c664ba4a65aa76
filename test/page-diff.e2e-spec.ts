import { createTestApp, TestApp } from './helpers/app';
import type { ChangeRequestBody } from './helpers/bodies';
import type { Client } from './helpers/client';
import { expectError } from './helpers/content-grants';
import type { TestOrganization } from './helpers/factories';
import { changeRequestPath } from './helpers/content';

interface BlockEntry {
  status: string;
  key?: string;
  type: string;
  before?: { key?: string };
  after?: { key?: string };
  moved?: true;
  inline?: { op: string; text: string }[];
}

interface PageDiff {
  object: 'page-diff';
  page: string;
  revisions: { before?: string; after: string };
  before?: { id: string; title: string; path?: string };
  after?: { id: string; title: string; path?: string };
  attributes: Record<string, { before?: unknown; after?: unknown }>;
  blocks: BlockEntry[];
  stats: Record<string, number>;
}

const paragraph = (key: string, text: string) => ({
  object: 'block',
  key,
  type: 'paragraph',
  data: {},
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
});
const doc = (...nodes: object[]) => ({ document: { object: 'document', data: {}, nodes } });

/** `status key` per block, `+moved` for a changed block that moved too. */
const outline = (diff: PageDiff) =>
  diff.blocks.map((block) => `${block.status}${block.moved ? '+moved' : ''} ${block.key ?? ''}`);

/** getChangeRequestPageDiff and getRevisionPageDiff: one page compared block by block. */
describe('page diff', () => {
  let t: TestApp;
  let org: TestOrganization;
  let owner: Client;

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.factories.organization();
    owner = org.owner.client;
  });
  afterAll(() => t.close());

  const crDiff = (spaceId: string, cr: string | number, pageId: string) =>
    `${changeRequestPath(spaceId, cr)}/changes/pages/${pageId}`;
  const revisionDiff = (spaceId: string, revision: string, pageId: string) =>
    `/v1/spaces/${spaceId}/revisions/${revision}/changes/pages/${pageId}`;

  /** Writes into the change request; answers the ids of the pages it inserted and its head. */
  async function write(spaceId: string, cr: string, changes: object[]) {
    const res = await owner.post(`${changeRequestPath(spaceId, cr)}/content?compat=false`, {
      changes,
    });
    expect(res.body).not.toHaveProperty('error');
    const body = res.body as {
      changeRequest: ChangeRequestBody;
      changes: { page: { id: string } }[];
    };
    return { ids: body.changes.map((change) => change.page.id), head: body.changeRequest.revision };
  }

  const newChangeRequest = async (spaceId: string) =>
    (await owner.post(changeRequestPath(spaceId), {}).expect(201)).body as ChangeRequestBody;

  /** A space whose primary has the page Manual (blocks a, b, c, d); a change request on it. */
  async function manual() {
    const space = await t.factories.space(org);
    const first = await newChangeRequest(space.id);
    const { ids } = await write(space.id, first.id, [
      {
        operation: 'insert_page',
        title: 'Manual',
        document: doc(
          paragraph('a', 'One'),
          paragraph('b', 'Two'),
          paragraph('c', 'Three'),
          paragraph('d', 'Four'),
        ),
      },
    ]);
    await owner.post(`${changeRequestPath(space.id, first.id)}/merge`, {}).expect(200);
    const cr = await newChangeRequest(space.id);
    return { spaceId: space.id, pageId: ids[0], cr };
  }

  describe('getChangeRequestPageDiff', () => {
    it('lists every block in the new order: added, removed, changed with its words, moved, unchanged', async () => {
      const { spaceId, pageId, cr } = await manual();
      await write(spaceId, cr.id, [
        {
          operation: 'update_page',
          page: pageId,
          title: 'The manual',
          document: doc(
            paragraph('d', 'Four'),
            paragraph('a', 'One'),
            paragraph('c', 'Three and more'),
            paragraph('e', 'Five'),
          ),
        },
      ]);

      const res = await owner.get(crDiff(spaceId, cr.number, pageId)).expect(200);
      const diff = res.body as PageDiff;
      expect(outline(diff)).toEqual([
        'moved d',
        'unchanged a',
        'removed b',
        'changed c',
        'added e',
      ]);
      expect(diff.stats).toEqual({ added: 1, removed: 1, changed: 1, moved: 1, unchanged: 1 });
      const changed = diff.blocks[3];
      expect(changed.before).toMatchObject(paragraph('c', 'Three'));
      expect(changed.after).toMatchObject(paragraph('c', 'Three and more'));
      expect(changed.inline).toEqual([
        { op: 'equal', text: 'Three' },
        { op: 'insert', text: ' and more' },
      ]);
      // Unchanged and moved blocks are carried once, as they are now.
      expect(diff.blocks[1]).toEqual({
        status: 'unchanged',
        key: 'a',
        type: 'paragraph',
        after: paragraph('a', 'One'),
      });
      expect(diff.blocks[2]).toEqual({
        status: 'removed',
        key: 'b',
        type: 'paragraph',
        before: paragraph('b', 'Two'),
      });
      expect(diff.attributes).toMatchObject({ title: { before: 'Manual', after: 'The manual' } });
      expect(diff.before).toMatchObject({ id: pageId, title: 'Manual', path: 'manual' });
      expect(diff.after).toMatchObject({ id: pageId, title: 'The manual', path: 'manual' });
      expect(diff.revisions).toEqual({ before: cr.revisionInitial, after: expect.any(String) });
    });

    it('shows a page created in the change request as all added, a deleted one as all removed', async () => {
      const { spaceId, pageId, cr } = await manual();
      const { ids } = await write(spaceId, cr.id, [
        {
          operation: 'insert_page',
          title: 'Fresh',
          document: doc(paragraph('x', 'New'), paragraph('y', 'Page')),
        },
        { operation: 'delete_page', page: pageId },
      ]);

      const created = (await owner.get(crDiff(spaceId, cr.id, ids[0])).expect(200))
        .body as PageDiff;
      expect(outline(created)).toEqual(['added x', 'added y']);
      expect(created).not.toHaveProperty('before');
      expect(created.after).toMatchObject({ title: 'Fresh' });
      expect(created.attributes).toEqual({});

      const deleted = (await owner.get(crDiff(spaceId, cr.id, pageId)).expect(200))
        .body as PageDiff;
      expect(outline(deleted)).toEqual(['removed a', 'removed b', 'removed c', 'removed d']);
      expect(deleted).not.toHaveProperty('after');
      expect(deleted.before).toMatchObject({ title: 'Manual' });
    });

    it('answers 404 for an unknown page, change request, space or organization', async () => {
      const { spaceId, pageId, cr } = await manual();
      expectError(await owner.get(crDiff(spaceId, cr.id, 'nope')), 404, 'Page');
      expectError(await owner.get(crDiff(spaceId, 'nope', pageId)), 404, 'Change request');
      const other = await t.factories.space(org);
      expectError(await owner.get(crDiff(other.id, cr.id, pageId)), 404, 'Change request');
      const stranger = await t.factories.organization();
      expectError(
        await stranger.owner.client.get(crDiff(spaceId, cr.id, pageId)),
        404,
        'not found',
      );
    });

    it('needs only view access: a reader reads it, a guest without a grant gets 404', async () => {
      const { spaceId, pageId, cr } = await manual();
      const reader = await t.factories.asMember(org, 'read');
      const res = await reader.get(crDiff(spaceId, cr.id, pageId)).expect(200);
      expect(outline(res.body as PageDiff)).toEqual([
        'unchanged a',
        'unchanged b',
        'unchanged c',
        'unchanged d',
      ]);
      // Who may not view the space cannot see it: 404, not 403.
      const guest = await t.factories.asMember(org, null);
      expectError(await guest.get(crDiff(spaceId, cr.id, pageId)), 404, 'not found');
    });
  });

  describe('getRevisionPageDiff', () => {
    it('compares with the first parent, or with `from`', async () => {
      const { spaceId, pageId, cr } = await manual();
      const first = await write(spaceId, cr.id, [
        {
          operation: 'update_page',
          page: pageId,
          document: doc(paragraph('a', 'One'), paragraph('b', 'Two, edited')),
        },
      ]);
      const second = await write(spaceId, cr.id, [
        {
          operation: 'update_page',
          page: pageId,
          document: doc(paragraph('a', 'One, edited'), paragraph('b', 'Two, edited')),
        },
      ]);

      const latest = (await owner.get(revisionDiff(spaceId, second.head, pageId)).expect(200))
        .body as PageDiff;
      expect(latest.revisions).toEqual({ before: first.head, after: second.head });
      expect(outline(latest)).toEqual(['changed a', 'unchanged b']);

      const since = await owner
        .get(`${revisionDiff(spaceId, second.head, pageId)}?from=${cr.revisionInitial}`)
        .expect(200);
      expect(outline(since.body as PageDiff)).toEqual([
        'changed a',
        'changed b',
        'removed c',
        'removed d',
      ]);
    });

    it("lists a page of a space's first revision as all added", async () => {
      const space = await t.factories.space(org);
      const pages = (await owner.get(`/v1/spaces/${space.id}/content/pages`).expect(200)).body as {
        pages: { id: string }[];
      };
      const res = await owner
        .get(revisionDiff(space.id, space.revision, pages.pages[0].id))
        .expect(200);
      const diff = res.body as PageDiff;
      // The initial page has no body: no blocks, but it is there after and not before.
      expect(diff.blocks).toEqual([]);
      expect(diff.revisions).toEqual({ after: space.revision });
      expect(diff).not.toHaveProperty('before');
      expect(diff.after).toMatchObject({ title: 'Untitled' });
    });

    it('answers 400 for a bad `from`, 404 for an unknown one, revision or page', async () => {
      const { spaceId, pageId, cr } = await manual();
      const path = revisionDiff(spaceId, cr.revision, pageId);
      expectError(await owner.get(`${path}?from=${'x'.repeat(65)}`), 400, 'from');
      expectError(await owner.get(`${path}?from=nope`), 404, 'Revision');
      const other = await t.factories.space(org);
      expectError(await owner.get(`${path}?from=${other.revision}`), 404, 'Revision');
      expectError(await owner.get(revisionDiff(spaceId, 'nope', pageId)), 404, 'Revision');
      expectError(await owner.get(revisionDiff(other.id, cr.revision, pageId)), 404, 'Revision');
      expectError(await owner.get(revisionDiff(spaceId, cr.revision, 'nope')), 404, 'Page');
      const stranger = await t.factories.organization();
      expectError(await stranger.owner.client.get(path), 404, 'not found');
      const guest = await t.factories.asMember(org, null);
      expectError(await guest.get(path), 404, 'not found');
    });
  });
});
