import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import type { CommentBody, PageOf } from './helpers/bodies';
import type { Client } from './helpers/client';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization, TestUser } from './helpers/factories';

/*
 * A smoke test of the comments module: one pass over each operation on both kinds of thread.
 * The full suite is comments.e2e-spec.ts.
 */

const paragraph = (key: string, text: string) => ({
  object: 'block',
  key,
  type: 'paragraph',
  data: {},
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
});

/** The API path of an absolute `urls.location`. */
const local = (url: unknown) => (url as string).replace(TEST_PUBLIC_URL, '');

const MARKDOWN = 'Is this *right*?\n\n- one\n- two';

describe('comments (smoke)', () => {
  let t: TestApp;
  let org: TestOrganization;
  let owner: Client;
  let commenter: TestUser;
  let reader: Client;
  let spaceId: string;
  /** A page of the primary revision (merged from a change request) with a node `n-deep`. */
  let pageId: string;
  let crId: string;

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.factories.organization();
    owner = org.owner.client;
    commenter = await t.factories.member(org, 'comment');
    reader = await t.factories.asMember(org, 'read');
    spaceId = (await t.factories.space(org, { title: 'Handbook' })).id;
    const cr = await t.factories.changeRequest(org, spaceId);
    const written = await owner
      .post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, {
        changes: [
          {
            operation: 'insert_page',
            title: 'Guide',
            document: {
              document: {
                object: 'document',
                data: {},
                nodes: [
                  paragraph('n-top', 'Top'),
                  {
                    object: 'block',
                    key: 'n-quote',
                    type: 'blockquote',
                    data: {},
                    nodes: [paragraph('n-deep', 'Deep')],
                  },
                ],
              },
            },
          },
        ],
      })
      .expect(200);
    pageId = (written.body.changes as { page: { id: string } }[])[0].page.id;
    await owner.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`, {}).expect(200);
    crId = (await t.factories.changeRequest(org, spaceId)).id;
  });
  afterAll(() => t.close());

  const spaceComments = () => `/v1/spaces/${spaceId}/comments`;
  const crComments = () => `/v1/spaces/${spaceId}/change-requests/${crId}/comments`;
  const openCount = async () =>
    (await owner.get(`/v1/spaces/${spaceId}`).expect(200)).body.comments as number;

  it('posts a comment on a node at any depth, reads it back, counts it', async () => {
    const before = await openCount();
    const res = await commenter.client
      .post(spaceComments(), { body: { markdown: MARKDOWN }, page: pageId, node: 'n-deep' })
      .expect(201);
    expectConforms({ status: 200, body: res.body }, 'postCommentInSpace');
    const comment = res.body as CommentBody;
    expect(res.headers.location).toBe(comment.urls.location);
    expect(comment.body).toEqual({ markdown: MARKDOWN });
    expect(comment.target).toMatchObject({ space: spaceId, page: { id: pageId } });
    expect(comment.target.node).toEqual({ id: 'n-deep' });
    expect(comment.target.changeRequest).toBeUndefined();
    expect(comment.permissions).toEqual({ view: true, edit: true, delete: true, reply: true });
    expect(await openCount()).toBe(before + 1);

    const asDocument = await owner
      .get(`${local(comment.urls.location)}?format=document`)
      .expect(200);
    expectConforms(asDocument, 'getCommentInSpace');
    expect(asDocument.body.body.document.nodes.length).toBeGreaterThan(0);
    expect(asDocument.body.permissions).toEqual({
      view: true,
      edit: false,
      delete: true,
      reply: true,
    });
  });

  it('answers 400 for bad targets and empty bodies, 403 for a read member', async () => {
    const body = { markdown: 'Hi' };
    await commenter.client.post(spaceComments(), { body, page: 'nope' }).expect(400);
    await commenter.client.post(spaceComments(), { body, page: pageId, node: 'nope' }).expect(400);
    await commenter.client.post(spaceComments(), { body, node: 'n-top' }).expect(400);
    await commenter.client
      .post(spaceComments(), { body, page: pageId, tableCell: { record: 'r', definition: 'd' } })
      .expect(400);
    await commenter.client
      .post(spaceComments(), {
        body,
        page: pageId,
        node: 'n-top',
        tableCell: { record: 'r', definition: 'd' },
      })
      .expect(400);
    await commenter.client.post(spaceComments(), { body: { markdown: '  \n' } }).expect(400);
    await commenter.client.post(spaceComments(), { body: {} }).expect(400);
    await commenter.client
      .post(spaceComments(), { body: { document: { object: 'document', data: {}, nodes: [] } } })
      .expect(400);
    await reader.post(spaceComments(), { body }).expect(403);
  });

  it('reacts, resolves, replies, edits and deletes', async () => {
    const other = await t.factories.member(org, 'edit');
    const posted = await commenter.client
      .post(spaceComments(), { body: { markdown: 'Resolve me' } })
      .expect(201);
    const location = local(posted.body.urls.location);
    const count = await openCount();

    await commenter.client.put(location, { addedReactions: ['👍', '👍'] }).expect(200);
    await other.client.put(location, { addedReactions: ['🎉', '👍'] }).expect(200);
    const reacted = await commenter.client
      .put(location, { addedReactions: ['👍'], removedReactions: ['🎉'] })
      .expect(200);
    expectConforms(reacted, 'updateCommentInSpace');
    expect((reacted.body as CommentBody).reactions.map((r) => [r.emoji, r.count])).toEqual([
      ['👍', 2],
      ['🎉', 1],
    ]);
    await reader.put(location, { addedReactions: ['👍'] }).expect(403);

    const resolved = await other.client.put(location, { resolved: true }).expect(200);
    expectConforms(resolved, 'updateCommentInSpace');
    expect(resolved.body).toMatchObject({ status: 'resolved', resolvedBy: { id: other.id } });
    expect(await openCount()).toBe(count - 1);
    const reopened = await other.client.put(location, { resolved: false }).expect(200);
    expect(reopened.body.status).toBe('open');
    expect(reopened.body.resolvedAt).toBeUndefined();
    expect(await openCount()).toBe(count);

    const reply = await other.client
      .post(`${location}/replies`, { body: { markdown: 'Done.' } })
      .expect(201);
    expectConforms({ status: 200, body: reply.body }, 'postCommentReplyInSpace');
    expect(reply.headers.location).toBe(reply.body.urls.location);
    await other.client.put(local(reply.body.urls.location), { resolved: true }).expect(400);
    const replies = await owner.get(`${location}/replies`).expect(200);
    expectConforms(replies, 'listCommentRepliesInSpace');
    const withReply = (await owner.get(location).expect(200)).body as CommentBody;
    expect(withReply.replies).toBe(1);
    expect(withReply.repliers).toEqual([
      { user: expect.objectContaining({ id: other.id }), count: 1, updatedAt: expect.any(String) },
    ]);

    await owner.put(location, { body: { markdown: 'Not mine' } }).expect(403);
    const edited = await commenter.client
      .put(location, { body: { markdown: 'Edited' } })
      .expect(200);
    expect(edited.body).toMatchObject({ body: { markdown: 'Edited' } });
    expect(edited.body.editedAt).toEqual(expect.any(String));

    await other.client.delete(location).expect(403);
    await owner.delete(location).expect(204);
    await owner.delete(location).expect(204);
    await owner.get(location).expect(404);
    expect(await openCount()).toBe(count - 1);
  });

  it('lists with filters and lists commenters', async () => {
    const list = await owner
      .get(`${spaceComments()}?order=asc&status=open&authors=${commenter.id}&limit=1`)
      .expect(200);
    expectConforms(list, 'listCommentsInSpace');
    const page = list.body as PageOf<CommentBody>;
    expect(page.items).toHaveLength(1);
    expect(page.items[0].postedBy.id).toBe(commenter.id);
    const byPage = await owner.get(`${spaceComments()}?targetPage=${pageId}`).expect(200);
    expect((byPage.body as PageOf<CommentBody>).items.every((c) => c.target.page)).toBe(true);
    const both = await owner
      .get(`${spaceComments()}?authors=${commenter.id}&authors=${org.owner.id}`)
      .expect(200);
    expect(both.body.count).toBe(page.count);

    const commenters = await owner.get(`/v1/spaces/${spaceId}/commenters`).expect(200);
    expectConforms(commenters, 'listCommentersInSpace');
    expect(commenters.body.items.map((m: { id: string }) => m.id)).toContain(commenter.id);
  });

  it('keeps a change request thread apart, with its own count and resolvable replies', async () => {
    const posted = await commenter.client
      .post(crComments(), { body: { markdown: 'On the change' }, page: pageId, node: 'n-top' })
      .expect(201);
    expectConforms({ status: 200, body: posted.body }, 'postCommentInChangeRequest');
    expect(posted.body.target).toMatchObject({ changeRequest: crId, page: { id: pageId } });
    const location = local(posted.body.urls.location);
    const cr = () => owner.get(`/v1/spaces/${spaceId}/change-requests/${crId}`).expect(200);
    expect((await cr()).body.comments).toBe(1);
    await owner.get(`${spaceComments()}/${posted.body.id as string}`).expect(404);

    const reply = await owner
      .post(`${location}/replies`, { body: { markdown: 'Fixed' } })
      .expect(201);
    const updated = await owner
      .put(local(reply.body.urls.location), { resolved: true, addedReactions: ['✅'] })
      .expect(200);
    expectConforms(updated, 'updateCommentReplyInChangeRequest');
    expect((await owner.get(location).expect(200)).body.status).toBe('resolved');
    expect((await cr()).body.comments).toBe(0);

    const list = await owner.get(crComments()).expect(200);
    expectConforms(list, 'listCommentsInChangeRequest');
    const commenters = await owner
      .get(`/v1/spaces/${spaceId}/change-requests/${crId}/commenters`)
      .expect(200);
    expectConforms(commenters, 'listCommentersInChangeRequest');
    expect(commenters.body.items.map((m: { id: string }) => m.id)).toEqual([
      org.owner.id,
      commenter.id,
    ]);

    const stranger = (await t.factories.organization()).owner.client;
    await stranger.get(location).expect(404);
    await stranger.delete(location).expect(404);
  });

  it('counts 50 parallel posts on one space', async () => {
    const space = await owner.post(`/v1/orgs/${org.id}/spaces`, { title: 'Busy' }).expect(201);
    const id = space.body.id as string;
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        owner.post(`/v1/spaces/${id}/comments`, { body: { markdown: `#${i}` } }).expect(201),
      ),
    );
    expect((await owner.get(`/v1/spaces/${id}`).expect(200)).body.comments).toBe(50);
  });
});
