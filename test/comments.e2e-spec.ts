import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import type { CommentBody, PageOf, ReactionBody } from './helpers/bodies';
import type { Client } from './helpers/client';
import {
  expectCreatedConforms,
  expectErrorBody,
  expectMarkdown,
  headRevision,
  makeThread,
  openComments,
  pageFixture,
  paragraphDocument,
  postComment,
  postReply,
  spaceComments,
  spaceThreadOf,
  textOf,
  type Thread,
  THREAD_KINDS,
  threadPaths,
} from './helpers/comments';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization, TestUser } from './helpers/factories';

/**
 * Comments on a space and on a change request (REFERENCE.md §10): posting with a target, reading,
 * listing with filters, editing, resolving, reactions, deleting, and the `comments` counts of the
 * space and the change request. Both kinds of thread run through the same table; replies and
 * commenters are in comments-replies.e2e-spec.ts, access rules in comments-access.e2e-spec.ts.
 */
describe('comments', () => {
  let t: TestApp;
  let org: TestOrganization;
  let owner: Client;
  /** Members of `org` by role; `commenter` and `second` both hold the comment role. */
  let commenter: TestUser;
  let second: TestUser;
  let editor: TestUser;
  let reader: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    org = await t.factories.organization();
    owner = org.owner.client;
    commenter = await t.factories.member(org, 'comment');
    second = await t.factories.member(org, 'comment');
    editor = await t.factories.member(org, 'edit');
    reader = await t.factories.member(org, 'read');
    admin = await t.factories.member(org, 'admin');
  });
  afterAll(() => t.close());

  const ids = (items: { id: string }[]) => items.map((item) => item.id);

  /** Reactions as `{emoji: {count, users (sorted ids)}}`, whatever order they come in. */
  const reactionsOf = (reactions: ReactionBody[]) =>
    Object.fromEntries(
      reactions.map((reaction) => [
        reaction.emoji,
        { count: reaction.count, users: reaction.users.map((entry) => entry.user.id).sort() },
      ]),
    );

  describe.each(THREAD_KINDS)('on a %s', (kind) => {
    const newThread = () => makeThread(t, org, kind);

    async function list(thread: Thread, query = '', as: Client = owner) {
      const res = await as.get(`${thread.comments}${query}`);
      expect(res.status).toBe(200);
      expectConforms(res, thread.operationIds.list);
      return res.body as PageOf<CommentBody>;
    }

    async function update(thread: Thread, commentId: string, body: object, as: Client) {
      const res = await as.put(thread.comment(commentId), body);
      expect(res.status).toBe(200);
      expectConforms(res, thread.operationIds.update);
      return res.body as CommentBody;
    }

    describe('POST …/comments', () => {
      it('posts a general comment: 201 with Location, open, on the revision commented on', async () => {
        const thread = await newThread();
        const revision = await headRevision(thread);
        t.clock.advance(1000);
        const res = await commenter.client.post(thread.comments, {
          body: { markdown: 'Looks good.' },
        });
        expectCreatedConforms(res, thread.operationIds.post);
        const comment = res.body as CommentBody;
        expect(comment).toMatchObject({
          object: 'comment',
          postedBy: { object: 'user', id: commenter.id, displayName: commenter.displayName },
          reactions: [],
          replies: 0,
          repliers: [],
          status: 'open',
          urls: { location: `${TEST_PUBLIC_URL}${thread.comment(comment.id)}` },
          permissions: { view: true, edit: true, delete: true, reply: true },
        });
        expect(Number.isNaN(Date.parse(comment.postedAt))).toBe(false);
        expect(comment).not.toHaveProperty('editedAt');
        expect(comment).not.toHaveProperty('resolvedAt');
        expect(comment).not.toHaveProperty('resolvedBy');
        expectMarkdown(comment.body, 'Looks good.');
        expect(comment.target).toEqual({
          space: thread.spaceId,
          revision,
          ...(thread.changeRequest ? { changeRequest: thread.changeRequest.id } : {}),
        });
        expect(res.headers.location).toBe(comment.urls.location);

        const read = await commenter.client.get(thread.comment(comment.id)).expect(200);
        expect(read.body).toEqual(comment);
      });

      it('targets a page, a node of that page, and a cell of its table', async () => {
        const thread = await newThread();
        const { guide } = thread;
        const onPage = await postComment(t, thread, commenter.client, {
          body: { markdown: 'About the page.' },
          page: guide.id,
        });
        expect(onPage.target.page).toEqual({ id: guide.id });
        expect(onPage.target).not.toHaveProperty('node');
        expect(onPage.target).not.toHaveProperty('tableCell');

        const onNode = await postComment(t, thread, commenter.client, {
          body: { markdown: 'About this paragraph.' },
          page: guide.id,
          node: guide.paragraph,
        });
        expect(onNode.target).toMatchObject({
          page: { id: guide.id },
          node: { id: guide.paragraph },
        });
        expect(onNode.target).not.toHaveProperty('tableCell');

        const cell = { record: guide.table.record, definition: guide.table.definition };
        const onCell = await postComment(t, thread, commenter.client, {
          body: { markdown: 'About this cell.' },
          page: guide.id,
          node: guide.table.key,
          tableCell: cell,
        });
        expect(onCell.target).toMatchObject({
          space: thread.spaceId,
          page: { id: guide.id },
          node: { id: guide.table.key },
          tableCell: cell,
        });
        const read = await owner.get(thread.comment(onCell.id)).expect(200);
        expectConforms(read, thread.operationIds.get);
        expect((read.body as CommentBody).target).toEqual(onCell.target);
      });

      it('keeps a markdown body as written and renders it as a document; takes a document body', async () => {
        const thread = await newThread();
        const text = 'Looks **good**, but see `config` and *this*.\n\n- one\n- two';
        const comment = await postComment(t, thread, commenter.client, {
          body: { markdown: text },
        });
        expectMarkdown(comment.body, text);

        const byDefault = await owner.get(thread.comment(comment.id)).expect(200);
        expectMarkdown((byDefault.body as CommentBody).body, text);
        const asMarkdown = await owner.get(`${thread.comment(comment.id)}?format=markdown`);
        expect(asMarkdown.status).toBe(200);
        expectMarkdown((asMarkdown.body as CommentBody).body, text);

        const asDocument = await owner.get(`${thread.comment(comment.id)}?format=document`);
        expect(asDocument.status).toBe(200);
        expectConforms(asDocument, thread.operationIds.get);
        const { body } = asDocument.body as CommentBody;
        expect(body).not.toHaveProperty('markdown');
        expect(body.document?.object).toBe('document');
        expect(textOf(body.document)).toContain('good, but see config and this.');

        const fromDocument = await postComment(t, thread, commenter.client, {
          body: { document: paragraphDocument('Why not?') },
        });
        expectMarkdown(fromDocument.body, 'Why not?');
        const documentBack = await owner.get(`${thread.comment(fromDocument.id)}?format=document`);
        expect(textOf((documentBack.body as CommentBody).body.document)).toBe('Why not?');
      });

      it('refuses bad input with a 400: no body, a blank one, unknown or mismatched targets', async () => {
        const thread = await newThread();
        const { guide, reference } = thread;
        const cases: [string, object][] = [
          ['no body', {}],
          ['an empty markdown body', { body: { markdown: '' } }],
          ['a blank markdown body', { body: { markdown: '  \n\n ' } }],
          [
            'a document without nodes',
            { body: { document: { object: 'document', data: {}, nodes: [] } } },
          ],
          ['an unknown page', { body: { markdown: 'Hi.' }, page: 'no-such-page' }],
          ['an unknown node', { body: { markdown: 'Hi.' }, page: guide.id, node: 'no-such-node' }],
          [
            'a node of another page',
            { body: { markdown: 'Hi.' }, page: reference.id, node: guide.paragraph },
          ],
          ['a node without its page', { body: { markdown: 'Hi.' }, node: guide.paragraph }],
          [
            'a table cell without its node',
            {
              body: { markdown: 'Hi.' },
              page: guide.id,
              tableCell: { record: guide.table.record, definition: guide.table.definition },
            },
          ],
        ];
        for (const [label, body] of cases) {
          const res = await commenter.client.post(thread.comments, body);
          expect({ label, status: res.status, body: res.body as unknown }).toEqual({
            label,
            status: 400,
            body: { error: { code: 400, message: expect.any(String) } },
          });
        }
        expect((await list(thread)).items).toEqual([]);
        expect(await openComments(thread)).toBe(0);
      });
    });

    describe('GET …/comments/:commentId', () => {
      it('reads a comment; an unknown id or a comment of another thread is a 404', async () => {
        const thread = await newThread();
        const other = await newThread();
        const comment = await postComment(t, thread, commenter.client);
        const elsewhere = await postComment(t, other, commenter.client);

        const res = await reader.client.get(thread.comment(comment.id)).expect(200);
        expectConforms(res, thread.operationIds.get);
        expect(res.body).toMatchObject({ id: comment.id, body: comment.body, status: 'open' });

        for (const path of [thread.comment('no-such-comment'), thread.comment(elsewhere.id)]) {
          expectErrorBody(await owner.get(path), 404);
        }
        if (thread.changeRequest) {
          // A change request is also addressed by its number.
          const byNumber = threadPaths(
            `/v1/spaces/${thread.spaceId}/change-requests/${thread.changeRequest.number}`,
          );
          const found = await owner.get(byNumber.comment(comment.id)).expect(200);
          expect((found.body as CommentBody).id).toBe(comment.id);
        }
      });
    });

    describe('GET …/comments', () => {
      it('lists newest first by default, oldest first with order=asc, page by page', async () => {
        const thread = await newThread();
        const first = await postComment(t, thread, commenter.client);
        const middle = await postComment(t, thread, second.client);
        const last = await postComment(t, thread, owner);

        const all = await list(thread);
        expect(ids(all.items)).toEqual([last.id, middle.id, first.id]);
        expect(all.count).toBe(3);
        expect(all).not.toHaveProperty('next');
        expect(ids((await list(thread, '?order=desc')).items)).toEqual([
          last.id,
          middle.id,
          first.id,
        ]);
        expect(ids((await list(thread, '?order=asc')).items)).toEqual([
          first.id,
          middle.id,
          last.id,
        ]);

        const page1 = await list(thread, '?limit=2');
        expect(ids(page1.items)).toEqual([last.id, middle.id]);
        expect(page1.count).toBe(3);
        expect(page1.next?.page).toEqual(expect.any(String));
        const page2 = await list(
          thread,
          `?limit=2&page=${encodeURIComponent(page1.next?.page ?? '')}`,
        );
        expect(ids(page2.items)).toEqual([first.id]);
        expect(page2).not.toHaveProperty('next');

        const ascending = await list(thread, '?order=asc&limit=2');
        expect(ids(ascending.items)).toEqual([first.id, middle.id]);
        const rest = await list(
          thread,
          `?order=asc&limit=2&page=${encodeURIComponent(ascending.next?.page ?? '')}`,
        );
        expect(ids(rest.items)).toEqual([last.id]);
      });

      it('filters by status, target page and authors (one or repeated), in either format', async () => {
        const thread = await newThread();
        const { guide, reference } = thread;
        const onGuide = await postComment(t, thread, commenter.client, {
          body: { markdown: 'On the guide.' },
          page: guide.id,
        });
        const general = await postComment(t, thread, second.client, {
          body: { markdown: 'General.' },
        });
        const onReference = await postComment(t, thread, owner, {
          body: { markdown: 'On the reference.' },
          page: reference.id,
        });
        const onGuideNode = await postComment(t, thread, second.client, {
          body: { markdown: 'On a paragraph of the guide.' },
          page: guide.id,
          node: guide.paragraph,
        });
        await update(thread, general.id, { resolved: true }, owner);

        const listed = async (query: string) => ids((await list(thread, query)).items);
        expect(await listed('')).toEqual([onGuideNode.id, onReference.id, general.id, onGuide.id]);
        expect(await listed('?status=all')).toEqual([
          onGuideNode.id,
          onReference.id,
          general.id,
          onGuide.id,
        ]);
        expect(await listed('?status=open')).toEqual([onGuideNode.id, onReference.id, onGuide.id]);
        expect(await listed('?status=resolved')).toEqual([general.id]);
        expect(await listed(`?targetPage=${guide.id}`)).toEqual([onGuideNode.id, onGuide.id]);
        expect(await listed(`?targetPage=${reference.id}`)).toEqual([onReference.id]);
        expect(await listed(`?authors=${second.id}`)).toEqual([onGuideNode.id, general.id]);
        expect(await listed(`?authors=${commenter.id}&authors=${org.owner.id}`)).toEqual([
          onReference.id,
          onGuide.id,
        ]);
        expect(await listed(`?authors=${reader.id}`)).toEqual([]);
        expect(await listed(`?status=open&authors=${second.id}&order=asc`)).toEqual([
          onGuideNode.id,
        ]);
        const counted = await list(thread, `?status=open&targetPage=${guide.id}&limit=1`);
        expect(counted.count).toBe(2);
        expect(ids(counted.items)).toEqual([onGuideNode.id]);

        const asDocuments = await list(thread, `?format=document&authors=${commenter.id}`);
        expect(asDocuments.items).toHaveLength(1);
        expect(asDocuments.items[0].body).not.toHaveProperty('markdown');
        expect(textOf(asDocuments.items[0].body.document)).toBe('On the guide.');
        const asMarkdown = await list(thread, `?format=markdown&authors=${commenter.id}`);
        expectMarkdown(asMarkdown.items[0].body, 'On the guide.');
      });

      it('refuses an unknown order, status or format and a negative limit with a 400', async () => {
        const thread = await newThread();
        expectErrorBody(await owner.get(`${thread.comments}?order=sideways`), 400);
        expectErrorBody(await owner.get(`${thread.comments}?status=pending`), 400);
        expectErrorBody(await owner.get(`${thread.comments}?format=html`), 400);
        expectErrorBody(await owner.get(`${thread.comments}?limit=-1`), 400);
      });
    });

    describe('PUT …/comments/:commentId', () => {
      it('lets the author edit the body, setting editedAt; anyone else gets 403, even an admin', async () => {
        const thread = await newThread();
        const comment = await postComment(t, thread, commenter.client, {
          body: { markdown: 'First draft.' },
        });
        for (const client of [owner, admin.client, second.client, editor.client, reader.client]) {
          expectErrorBody(
            await client.put(thread.comment(comment.id), { body: { markdown: 'Hijacked.' } }),
            403,
          );
        }
        expectErrorBody(
          await commenter.client.put(thread.comment(comment.id), { body: { markdown: ' ' } }),
          400,
        );
        const unchanged = await owner.get(thread.comment(comment.id)).expect(200);
        expectMarkdown((unchanged.body as CommentBody).body, 'First draft.');
        expect(unchanged.body).not.toHaveProperty('editedAt');

        t.clock.advance(1000);
        const edited = await update(
          thread,
          comment.id,
          { body: { markdown: 'Second draft.' } },
          commenter.client,
        );
        expectMarkdown(edited.body, 'Second draft.');
        expect(edited.editedAt).toEqual(expect.any(String));
        expect(Date.parse(edited.editedAt ?? '')).toBeGreaterThan(Date.parse(comment.postedAt));
        expect(edited.postedAt).toBe(comment.postedAt);
        const read = await owner.get(thread.comment(comment.id)).expect(200);
        expectMarkdown((read.body as CommentBody).body, 'Second draft.');
        expect((read.body as CommentBody).editedAt).toBe(edited.editedAt);
      });

      it('resolves and reopens: status, resolvedAt and resolvedBy, and the counts follow', async () => {
        const thread = await newThread();
        const comment = await postComment(t, thread, commenter.client);
        expect(await openComments(thread)).toBe(1);

        expectErrorBody(
          await reader.client.put(thread.comment(comment.id), { resolved: true }),
          403,
        );
        expect(await openComments(thread)).toBe(1);

        t.clock.advance(1000);
        const resolved = await update(thread, comment.id, { resolved: true }, second.client);
        expect(resolved).toMatchObject({
          status: 'resolved',
          resolvedBy: { object: 'user', id: second.id },
        });
        expect(Number.isNaN(Date.parse(resolved.resolvedAt ?? ''))).toBe(false);
        expect(resolved).not.toHaveProperty('editedAt');
        expect(await openComments(thread)).toBe(0);
        const read = await owner.get(thread.comment(comment.id)).expect(200);
        expectConforms(read, thread.operationIds.get);
        expect(read.body).toMatchObject({
          status: 'resolved',
          resolvedAt: resolved.resolvedAt,
          resolvedBy: { id: second.id },
        });

        const reopened = await update(thread, comment.id, { resolved: false }, owner);
        expect(reopened.status).toBe('open');
        expect(reopened).not.toHaveProperty('resolvedAt');
        expect(reopened).not.toHaveProperty('resolvedBy');
        expect(await openComments(thread)).toBe(1);
        const again = await owner.get(thread.comment(comment.id)).expect(200);
        expect(again.body).toMatchObject({ status: 'open' });
        expect(again.body).not.toHaveProperty('resolvedAt');
      });

      it('counts reactions per user: two users, idempotent, each removing only its own', async () => {
        const thread = await newThread();
        const comment = await postComment(t, thread, commenter.client);
        const put = (as: TestUser, body: object) => update(thread, comment.id, body, as.client);

        const liked = await put(commenter, { addedReactions: ['👍'] });
        expect(reactionsOf(liked.reactions)).toEqual({ '👍': { count: 1, users: [commenter.id] } });
        expect(liked.reactions[0].users[0]).toEqual({
          user: expect.objectContaining({ object: 'user', id: commenter.id }),
          reactedAt: expect.any(String),
        });
        const twice = await put(commenter, { addedReactions: ['👍'] });
        expect(reactionsOf(twice.reactions)).toEqual({ '👍': { count: 1, users: [commenter.id] } });

        const both = await put(second, { addedReactions: ['👍', '🎉'] });
        expect(reactionsOf(both.reactions)).toEqual({
          '👍': { count: 2, users: [commenter.id, second.id].sort() },
          '🎉': { count: 1, users: [second.id] },
        });
        expectErrorBody(
          await reader.client.put(thread.comment(comment.id), { addedReactions: ['👀'] }),
          403,
        );

        const removed = await put(second, { removedReactions: ['👍'] });
        expect(reactionsOf(removed.reactions)).toEqual({
          '👍': { count: 1, users: [commenter.id] },
          '🎉': { count: 1, users: [second.id] },
        });
        // Removing twice, or removing what someone else added, changes nothing.
        await put(second, { removedReactions: ['👍'] });
        const notMine = await put(commenter, { removedReactions: ['🎉'] });
        expect(reactionsOf(notMine.reactions)).toEqual(reactionsOf(removed.reactions));

        const last = await put(second, { removedReactions: ['🎉'] });
        expect(reactionsOf(last.reactions)).toEqual({ '👍': { count: 1, users: [commenter.id] } });
        const read = await owner.get(thread.comment(comment.id)).expect(200);
        expect(reactionsOf((read.body as CommentBody).reactions)).toEqual({
          '👍': { count: 1, users: [commenter.id] },
        });
        // Reactions are not edits.
        expect(read.body).not.toHaveProperty('editedAt');
      });

      it('answers 404 for an unknown comment', async () => {
        const thread = await newThread();
        expectErrorBody(
          await owner.put(thread.comment('no-such-comment'), { resolved: true }),
          404,
        );
      });
    });

    describe('DELETE …/comments/:commentId', () => {
      it('lets the author delete: 204, the comment and its replies are gone; absent is 204 too', async () => {
        const thread = await newThread();
        const comment = await postComment(t, thread, commenter.client);
        const kept = await postComment(t, thread, commenter.client);
        const reply = await postReply(t, thread, second.client, comment.id);
        expect(await openComments(thread)).toBe(2);

        const res = await commenter.client.delete(thread.comment(comment.id));
        expect(res.status).toBe(204);
        expectConforms(res, thread.operationIds.delete);
        expectErrorBody(await owner.get(thread.comment(comment.id)), 404);
        expectErrorBody(await owner.get(thread.reply(comment.id, reply.id)), 404);
        expect(ids((await list(thread)).items)).toEqual([kept.id]);
        expect(await openComments(thread)).toBe(1);

        const again = await commenter.client.delete(thread.comment(comment.id));
        expect(again.status).toBe(204);
        expectConforms(again, thread.operationIds.delete);
        expect((await owner.delete(thread.comment('no-such-comment'))).status).toBe(204);
        expect(await openComments(thread)).toBe(1);
      });

      it("lets a space admin delete another member's comment; anyone else gets 403", async () => {
        const thread = await newThread();
        const comment = await postComment(t, thread, commenter.client);
        for (const client of [second.client, editor.client, reader.client]) {
          expectErrorBody(await client.delete(thread.comment(comment.id)), 403);
        }
        await owner.get(thread.comment(comment.id)).expect(200);

        expect((await admin.client.delete(thread.comment(comment.id))).status).toBe(204);
        expectErrorBody(await owner.get(thread.comment(comment.id)), 404);
        const another = await postComment(t, thread, second.client);
        expect((await owner.delete(thread.comment(another.id))).status).toBe(204);
        expect(await openComments(thread)).toBe(0);
      });
    });

    describe('comments count', () => {
      it('counts open comments after every post, resolve, reopen and delete', async () => {
        const thread = await newThread();
        // Comments of a change request are not the space's.
        const spaceCount = async () =>
          thread.changeRequest ? spaceComments(thread) : openComments(thread);
        const expectCounts = async (open: number) => {
          expect(await openComments(thread)).toBe(open);
          expect(await spaceCount()).toBe(thread.changeRequest ? 0 : open);
        };
        await expectCounts(0);
        const a = await postComment(t, thread, commenter.client);
        await expectCounts(1);
        const b = await postComment(t, thread, second.client);
        await expectCounts(2);
        const c = await postComment(t, thread, owner);
        await expectCounts(3);
        await update(thread, a.id, { resolved: true }, owner);
        await expectCounts(2);
        // Resolving again leaves a resolved comment resolved.
        await update(thread, a.id, { resolved: true }, owner);
        await expectCounts(2);
        await update(thread, b.id, { resolved: true }, owner);
        await expectCounts(1);
        await update(thread, a.id, { resolved: false }, owner);
        await expectCounts(2);
        await update(thread, a.id, { resolved: false }, owner);
        await expectCounts(2);
        // Deleting a resolved comment leaves the open count alone; deleting an open one lowers it.
        await owner.delete(thread.comment(b.id)).expect(204);
        await expectCounts(2);
        await owner.delete(thread.comment(c.id)).expect(204);
        await expectCounts(1);
        await postReply(t, thread, second.client, a.id);
        await expectCounts(1);
        await owner.delete(thread.comment(a.id)).expect(204);
        await expectCounts(0);
      });

      it('counts 50 comments posted in parallel', async () => {
        const thread = await newThread();
        t.clock.advance(1000);
        const answers = await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            commenter.client.post(thread.comments, { body: { markdown: `Comment ${i}.` } }),
          ),
        );
        expect(answers.map((res) => res.status)).toEqual(Array(50).fill(201));
        expect(new Set(answers.map((res) => (res.body as CommentBody).id)).size).toBe(50);
        expect(await openComments(thread)).toBe(50);
        const listed = await list(thread, '?limit=100');
        expect(listed.count).toBe(50);
        expect(listed.items).toHaveLength(50);
      });
    });
  });

  describe('space and change request threads', () => {
    it('are apart: each lists, reads and counts only its own comments', async () => {
      const crThread = await makeThread(t, org, 'change request');
      const spaceThread = spaceThreadOf(crThread);
      const inSpace = await postComment(t, spaceThread, commenter.client);
      const inChangeRequest = await postComment(t, crThread, commenter.client);
      expect(inSpace.target).not.toHaveProperty('changeRequest');
      expect(inChangeRequest.target.changeRequest).toBe(crThread.changeRequest?.id);

      const spaceList = await owner.get(spaceThread.comments).expect(200);
      expect(ids((spaceList.body as PageOf<CommentBody>).items)).toEqual([inSpace.id]);
      const crList = await owner.get(crThread.comments).expect(200);
      expect(ids((crList.body as PageOf<CommentBody>).items)).toEqual([inChangeRequest.id]);

      expectErrorBody(await owner.get(spaceThread.comment(inChangeRequest.id)), 404);
      expectErrorBody(await owner.get(crThread.comment(inSpace.id)), 404);
      expectErrorBody(await owner.put(crThread.comment(inSpace.id), { resolved: true }), 404);
      expect(await spaceComments(crThread)).toBe(1);
      expect(await openComments(crThread)).toBe(1);

      // Another change request of the same space has its own thread.
      const other = await owner
        .post(`/v1/spaces/${crThread.spaceId}/change-requests`, { subject: 'Other' })
        .expect(201);
      const otherThread = threadPaths(
        `/v1/spaces/${crThread.spaceId}/change-requests/${(other.body as { id: string }).id}`,
      );
      const otherList = await owner.get(otherThread.comments).expect(200);
      expect((otherList.body as PageOf<CommentBody>).items).toEqual([]);
      expectErrorBody(await owner.get(otherThread.comment(inChangeRequest.id)), 404);
    });

    it("target the revision commented on: the space's primary, or the change request's head", async () => {
      const crThread = await makeThread(t, org, 'change request');
      const { spaceId, guide, reference } = crThread;
      const crId = crThread.changeRequest?.id ?? '';
      const spaceThread = spaceThreadOf(crThread);
      const before = await headRevision(crThread);
      const early = await postComment(t, crThread, commenter.client, {
        body: { markdown: 'Before the edit.' },
        page: reference.id,
      });
      expect(early.target.revision).toBe(before);

      // The change request adds a page Draft and deletes Reference; the primary keeps Reference.
      await owner
        .post(`/v1/spaces/${spaceId}/change-requests/${crId}/content`, {
          changes: [
            {
              operation: 'insert_page',
              title: 'Draft',
              document: { markdown: '# Draft\n\nOnly in the change request.\n' },
            },
            { operation: 'delete_page', page: reference.id },
          ],
        })
        .expect(200);
      const head = await headRevision(crThread);
      expect(head).not.toBe(before);
      const pages = await owner
        .get(`/v1/spaces/${spaceId}/change-requests/${crId}/content/pages`)
        .expect(200);
      const draftId = (pages.body as { pages: { id: string; title: string }[] }).pages.find(
        (page) => page.title === 'Draft',
      )?.id;
      expect(draftId).toEqual(expect.any(String));
      const draft = await pageFixture(owner, spaceId, draftId ?? '', crId);

      const onDraft = await postComment(t, crThread, commenter.client, {
        body: { markdown: 'On the draft.' },
        page: draft.id,
        node: draft.paragraph,
      });
      expect(onDraft.target).toMatchObject({
        space: spaceId,
        revision: head,
        changeRequest: crId,
        page: { id: draft.id },
        node: { id: draft.paragraph },
      });
      expectErrorBody(
        await commenter.client.post(crThread.comments, {
          body: { markdown: 'Gone here.' },
          page: reference.id,
        }),
        400,
      );
      // The earlier comment keeps the revision it was made on.
      const earlyRead = await owner.get(crThread.comment(early.id)).expect(200);
      expect((earlyRead.body as CommentBody).target.revision).toBe(before);

      const primary = await headRevision(spaceThread);
      expectErrorBody(
        await commenter.client.post(spaceThread.comments, {
          body: { markdown: 'Not merged yet.' },
          page: draft.id,
        }),
        400,
      );
      const onReference = await postComment(t, spaceThread, commenter.client, {
        body: { markdown: 'Still here.' },
        page: reference.id,
        node: reference.paragraph,
      });
      expect(onReference.target).toEqual({
        space: spaceId,
        revision: primary,
        page: { id: reference.id },
        node: { id: reference.paragraph },
      });
      expect(guide.id).not.toBe(draft.id);
    });
  });
});
