import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import type { CommentBody, MemberBody, PageOf, ReactionBody, ReplyBody } from './helpers/bodies';
import type { Client } from './helpers/client';
import {
  expectCreatedConforms,
  expectErrorBody,
  expectMarkdown,
  makeThread,
  openComments,
  paragraphDocument,
  postComment,
  postReply,
  textOf,
  type Thread,
  THREAD_KINDS,
} from './helpers/comments';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization, TestUser } from './helpers/factories';

/**
 * Replies to comments and the commenters of a thread, on a space and on a change request
 * (REFERENCE.md §10): one table over both kinds of thread, and the one difference (`resolved` on a
 * reply resolves the comment in a change request, and is a 400 on a space).
 */
describe('comment replies and commenters', () => {
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

  const reactionsOf = (reactions: ReactionBody[]) =>
    Object.fromEntries(
      reactions.map((reaction) => [
        reaction.emoji,
        { count: reaction.count, users: reaction.users.map((entry) => entry.user.id).sort() },
      ]),
    );

  async function getComment(thread: Thread, commentId: string): Promise<CommentBody> {
    const res = await owner.get(thread.comment(commentId));
    expect(res.status).toBe(200);
    expectConforms(res, thread.operationIds.get);
    return res.body as CommentBody;
  }

  /** `repliers` as `{userId: {count, updatedAt}}`. */
  const repliersOf = (comment: CommentBody) =>
    Object.fromEntries(
      comment.repliers.map((replier) => [
        replier.user.id,
        { count: replier.count, updatedAt: replier.updatedAt },
      ]),
    );

  describe.each(THREAD_KINDS)('on a %s', (kind) => {
    const newThread = () => makeThread(t, org, kind);

    async function listReplies(thread: Thread, commentId: string, query = '') {
      const res = await owner.get(`${thread.replies(commentId)}${query}`);
      expect(res.status).toBe(200);
      expectConforms(res, thread.operationIds.listReplies);
      return res.body as PageOf<ReplyBody>;
    }

    async function updateReply(
      thread: Thread,
      commentId: string,
      replyId: string,
      body: object,
      as: Client,
    ) {
      const res = await as.put(thread.reply(commentId, replyId), body);
      expect(res.status).toBe(200);
      expectConforms(res, thread.operationIds.updateReply);
      return res.body as ReplyBody;
    }

    describe('POST …/comments/:commentId/replies', () => {
      it('posts a reply: 201 with Location; the comment counts it and its replier', async () => {
        const thread = await newThread();
        const comment = await postComment(t, thread, owner);
        t.clock.advance(1000);
        const res = await commenter.client.post(thread.replies(comment.id), {
          body: { markdown: 'Agreed, **fully**.' },
        });
        expectCreatedConforms(res, thread.operationIds.postReply);
        const reply = res.body as ReplyBody;
        expect(reply).toMatchObject({
          object: 'comment-reply',
          postedBy: { object: 'user', id: commenter.id, displayName: commenter.displayName },
          reactions: [],
          urls: { location: `${TEST_PUBLIC_URL}${thread.reply(comment.id, reply.id)}` },
          permissions: { view: true, edit: true, delete: true, reply: true },
        });
        expectMarkdown(reply.body, 'Agreed, **fully**.');
        expect(reply).not.toHaveProperty('target');
        expect(reply).not.toHaveProperty('editedAt');
        expect(res.headers.location).toBe(reply.urls.location);

        const parent = await getComment(thread, comment.id);
        expect(parent.replies).toBe(1);
        expect(parent.repliers).toEqual([
          {
            user: expect.objectContaining({ object: 'user', id: commenter.id }),
            count: 1,
            updatedAt: reply.postedAt,
          },
        ]);
        // A reply is not a comment of its own.
        const listed = await owner.get(thread.comments).expect(200);
        expect(ids((listed.body as PageOf<CommentBody>).items)).toEqual([comment.id]);
        expect(await openComments(thread)).toBe(1);
      });

      it('takes a document body; refuses a blank one with a 400 and an unknown comment with a 404', async () => {
        const thread = await newThread();
        const comment = await postComment(t, thread, owner);
        const plain = await postReply(t, thread, commenter.client, comment.id);
        t.clock.advance(1000);
        const res = await commenter.client.post(thread.replies(comment.id), {
          body: { document: paragraphDocument('From a document.') },
        });
        expectCreatedConforms(res, thread.operationIds.postReply);
        expectMarkdown((res.body as ReplyBody).body, 'From a document.');

        const bad: [string, object][] = [
          ['no body', {}],
          ['an empty markdown body', { body: { markdown: '' } }],
          ['a blank markdown body', { body: { markdown: ' \n ' } }],
          [
            'a document without nodes',
            { body: { document: { object: 'document', data: {}, nodes: [] } } },
          ],
        ];
        for (const [label, body] of bad) {
          const answer = await commenter.client.post(thread.replies(comment.id), body);
          expect({ label, status: answer.status, body: answer.body as unknown }).toEqual({
            label,
            status: 400,
            body: { error: { code: 400, message: expect.any(String) } },
          });
        }
        expectErrorBody(
          await commenter.client.post(thread.replies('no-such-comment'), {
            body: { markdown: 'Hello?' },
          }),
          404,
        );
        expect((await getComment(thread, comment.id)).replies).toBe(2);
        expect(ids((await listReplies(thread, comment.id)).items)).toEqual([
          plain.id,
          (res.body as ReplyBody).id,
        ]);
      });
    });

    describe('GET …/comments/:commentId/replies', () => {
      it('lists replies oldest first, page by page, in either format', async () => {
        const thread = await newThread();
        const comment = await postComment(t, thread, owner);
        const other = await postComment(t, thread, owner);
        const r1 = await postReply(t, thread, commenter.client, comment.id, 'One.');
        const r2 = await postReply(t, thread, second.client, comment.id, 'Two.');
        await postReply(t, thread, second.client, other.id, 'Elsewhere.');
        const r3 = await postReply(t, thread, commenter.client, comment.id, 'Three.');

        const all = await listReplies(thread, comment.id);
        expect(ids(all.items)).toEqual([r1.id, r2.id, r3.id]);
        expect(all.count).toBe(3);
        expect(all).not.toHaveProperty('next');
        expectMarkdown(all.items[1].body, 'Two.');

        const page1 = await listReplies(thread, comment.id, '?limit=2');
        expect(ids(page1.items)).toEqual([r1.id, r2.id]);
        expect(page1.count).toBe(3);
        expect(page1.next?.page).toEqual(expect.any(String));
        const page2 = await listReplies(
          thread,
          comment.id,
          `?limit=2&page=${encodeURIComponent(page1.next?.page ?? '')}`,
        );
        expect(ids(page2.items)).toEqual([r3.id]);
        expect(page2).not.toHaveProperty('next');

        const documents = await listReplies(thread, comment.id, '?format=document');
        expect(documents.items.map((reply) => textOf(reply.body.document))).toEqual([
          'One.',
          'Two.',
          'Three.',
        ]);
        expect(documents.items[0].body).not.toHaveProperty('markdown');

        const empty = await listReplies(thread, (await postComment(t, thread, owner)).id);
        expect(empty.items).toEqual([]);
        expect(empty.count).toBe(0);
        expectErrorBody(await owner.get(thread.replies('no-such-comment')), 404);
      });
    });

    describe('GET …/comments/:commentId/replies/:commentReplyId', () => {
      it('reads a reply in either format; 404 for an unknown one or one of another comment', async () => {
        const thread = await newThread();
        const comment = await postComment(t, thread, owner);
        const other = await postComment(t, thread, owner);
        const reply = await postReply(t, thread, commenter.client, comment.id, 'See *above*.');
        const elsewhere = await postReply(t, thread, commenter.client, other.id);

        const res = await commenter.client.get(thread.reply(comment.id, reply.id)).expect(200);
        expectConforms(res, thread.operationIds.getReply);
        expect(res.body).toEqual(reply);
        const asDocument = await owner.get(`${thread.reply(comment.id, reply.id)}?format=document`);
        expect(asDocument.status).toBe(200);
        expectConforms(asDocument, thread.operationIds.getReply);
        expect(textOf((asDocument.body as ReplyBody).body.document)).toBe('See above.');

        for (const path of [
          thread.reply(comment.id, 'no-such-reply'),
          thread.reply(comment.id, elsewhere.id),
          thread.reply('no-such-comment', reply.id),
        ]) {
          expectErrorBody(await owner.get(path), 404);
        }
      });
    });

    describe('PUT …/comments/:commentId/replies/:commentReplyId', () => {
      it('lets the author edit a reply, setting editedAt; anyone else gets 403, even an admin', async () => {
        const thread = await newThread();
        const comment = await postComment(t, thread, owner);
        const reply = await postReply(t, thread, commenter.client, comment.id, 'Frist.');
        for (const client of [owner, admin.client, second.client, editor.client, reader.client]) {
          expectErrorBody(
            await client.put(thread.reply(comment.id, reply.id), { body: { markdown: 'No.' } }),
            403,
          );
        }
        expectErrorBody(
          await commenter.client.put(thread.reply(comment.id, reply.id), {
            body: { markdown: '' },
          }),
          400,
        );
        t.clock.advance(1000);
        const edited = await updateReply(
          thread,
          comment.id,
          reply.id,
          { body: { markdown: 'First.' } },
          commenter.client,
        );
        expectMarkdown(edited.body, 'First.');
        expect(Date.parse(edited.editedAt ?? '')).toBeGreaterThan(Date.parse(reply.postedAt));
        const read = await owner.get(thread.reply(comment.id, reply.id)).expect(200);
        expectMarkdown((read.body as ReplyBody).body, 'First.');
        expect((read.body as ReplyBody).editedAt).toBe(edited.editedAt);
        expectErrorBody(
          await owner.put(thread.reply(comment.id, 'no-such-reply'), { addedReactions: ['👍'] }),
          404,
        );
      });

      it('counts reactions on a reply per user: two users, idempotent, each removing its own', async () => {
        const thread = await newThread();
        const comment = await postComment(t, thread, owner);
        const reply = await postReply(t, thread, commenter.client, comment.id);
        const put = (as: TestUser, body: object) =>
          updateReply(thread, comment.id, reply.id, body, as.client);

        await put(second, { addedReactions: ['❤️'] });
        const twice = await put(second, { addedReactions: ['❤️'] });
        expect(reactionsOf(twice.reactions)).toEqual({ '❤️': { count: 1, users: [second.id] } });
        expect(twice.reactions[0].users[0].reactedAt).toEqual(expect.any(String));
        const both = await put(commenter, { addedReactions: ['❤️', '👀'] });
        expect(reactionsOf(both.reactions)).toEqual({
          '❤️': { count: 2, users: [commenter.id, second.id].sort() },
          '👀': { count: 1, users: [commenter.id] },
        });
        expectErrorBody(
          await reader.client.put(thread.reply(comment.id, reply.id), { addedReactions: ['👍'] }),
          403,
        );
        const removed = await put(second, { removedReactions: ['❤️', '👀'] });
        expect(reactionsOf(removed.reactions)).toEqual({
          '❤️': { count: 1, users: [commenter.id] },
          '👀': { count: 1, users: [commenter.id] },
        });
        const read = await owner.get(thread.reply(comment.id, reply.id)).expect(200);
        expect(reactionsOf((read.body as ReplyBody).reactions)).toEqual(
          reactionsOf(removed.reactions),
        );
        expect(read.body).not.toHaveProperty('editedAt');
        // Reactions on a reply are not the comment's.
        expect((await getComment(thread, comment.id)).reactions).toEqual([]);
      });
    });

    describe('DELETE …/comments/:commentId/replies/:commentReplyId', () => {
      it('lets the author or a space admin delete a reply; 403 for others; 204 when absent', async () => {
        const thread = await newThread();
        const comment = await postComment(t, thread, owner);
        const mine = await postReply(t, thread, commenter.client, comment.id);
        const theirs = await postReply(t, thread, second.client, comment.id);
        const third = await postReply(t, thread, second.client, comment.id);

        for (const client of [second.client, editor.client, reader.client]) {
          expectErrorBody(await client.delete(thread.reply(comment.id, mine.id)), 403);
        }
        const res = await commenter.client.delete(thread.reply(comment.id, mine.id));
        expect(res.status).toBe(204);
        expectConforms(res, thread.operationIds.deleteReply);
        expectErrorBody(await owner.get(thread.reply(comment.id, mine.id)), 404);

        expect((await admin.client.delete(thread.reply(comment.id, theirs.id))).status).toBe(204);
        expect((await owner.delete(thread.reply(comment.id, third.id))).status).toBe(204);
        const again = await commenter.client.delete(thread.reply(comment.id, mine.id));
        expect(again.status).toBe(204);
        expectConforms(again, thread.operationIds.deleteReply);
        expect((await owner.delete(thread.reply(comment.id, 'no-such-reply'))).status).toBe(204);

        expect((await listReplies(thread, comment.id)).items).toEqual([]);
        const parent = await getComment(thread, comment.id);
        expect(parent.replies).toBe(0);
        expect(parent.repliers).toEqual([]);
      });
    });

    describe('replies and repliers on the comment', () => {
      it('stay true after posts and deletes, repliers grouped per user', async () => {
        const thread = await newThread();
        const comment = await postComment(t, thread, owner);
        const r1 = await postReply(t, thread, commenter.client, comment.id);
        const r2 = await postReply(t, thread, second.client, comment.id);
        const r3 = await postReply(t, thread, commenter.client, comment.id);

        let parent = await getComment(thread, comment.id);
        expect(parent.replies).toBe(3);
        expect(parent.repliers).toHaveLength(2);
        expect(repliersOf(parent)).toEqual({
          [commenter.id]: { count: 2, updatedAt: r3.postedAt },
          [second.id]: { count: 1, updatedAt: r2.postedAt },
        });
        const listed = await owner.get(thread.comments).expect(200);
        expect((listed.body as PageOf<CommentBody>).items[0]).toMatchObject({
          replies: 3,
          repliers: parent.repliers,
        });

        await commenter.client.delete(thread.reply(comment.id, r3.id)).expect(204);
        parent = await getComment(thread, comment.id);
        expect(parent.replies).toBe(2);
        expect(repliersOf(parent)).toEqual({
          [commenter.id]: { count: 1, updatedAt: r1.postedAt },
          [second.id]: { count: 1, updatedAt: r2.postedAt },
        });

        await owner.delete(thread.reply(comment.id, r2.id)).expect(204);
        parent = await getComment(thread, comment.id);
        expect(parent.replies).toBe(1);
        expect(repliersOf(parent)).toEqual({
          [commenter.id]: { count: 1, updatedAt: r1.postedAt },
        });

        const r4 = await postReply(t, thread, second.client, comment.id);
        parent = await getComment(thread, comment.id);
        expect(parent.replies).toBe(2);
        expect(repliersOf(parent)).toEqual({
          [commenter.id]: { count: 1, updatedAt: r1.postedAt },
          [second.id]: { count: 1, updatedAt: r4.postedAt },
        });
      });
    });

    describe('GET …/commenters', () => {
      it('lists the members who commented or replied, once each, page by page', async () => {
        const thread = await newThread();
        const emptyRes = await owner.get(thread.commenters).expect(200);
        expectConforms(emptyRes, thread.operationIds.listCommenters);
        expect(emptyRes.body).toMatchObject({ items: [], count: 0 });

        const first = await postComment(t, thread, commenter.client);
        await postComment(t, thread, commenter.client);
        await postReply(t, thread, second.client, first.id);
        await postReply(t, thread, commenter.client, first.id);

        const res = await reader.client.get(thread.commenters).expect(200);
        expectConforms(res, thread.operationIds.listCommenters);
        const page = res.body as PageOf<MemberBody>;
        expect(page.count).toBe(2);
        expect(page.items.map((member) => member.user.id).sort()).toEqual(
          [commenter.id, second.id].sort(),
        );
        for (const member of page.items) {
          expect(member).toMatchObject({ object: 'member', id: member.user.id, role: 'comment' });
        }

        const page1 = await owner.get(`${thread.commenters}?limit=1`).expect(200);
        expectConforms(page1, thread.operationIds.listCommenters);
        const firstPage = page1.body as PageOf<MemberBody>;
        expect(firstPage.items).toHaveLength(1);
        expect(firstPage.count).toBe(2);
        const page2 = await owner
          .get(
            `${thread.commenters}?limit=1&page=${encodeURIComponent(firstPage.next?.page ?? '')}`,
          )
          .expect(200);
        const secondPage = page2.body as PageOf<MemberBody>;
        expect(secondPage.items).toHaveLength(1);
        expect(secondPage).not.toHaveProperty('next');
        expect(
          [...firstPage.items, ...secondPage.items].map((member) => member.user.id).sort(),
        ).toEqual([commenter.id, second.id].sort());
      });
    });
  });

  describe('resolved on a reply', () => {
    it('resolves and reopens the comment of a change request, keeping its count true', async () => {
      const thread = await makeThread(t, org, 'change request');
      const comment = await postComment(t, thread, commenter.client);
      const reply = await postReply(t, thread, second.client, comment.id);
      expect(await openComments(thread)).toBe(1);

      expectErrorBody(
        await reader.client.put(thread.reply(comment.id, reply.id), { resolved: true }),
        403,
      );
      const res = await second.client.put(thread.reply(comment.id, reply.id), { resolved: true });
      expect(res.status).toBe(200);
      expectConforms(res, thread.operationIds.updateReply);
      expect((res.body as ReplyBody).id).toBe(reply.id);
      const resolved = await getComment(thread, comment.id);
      expect(resolved).toMatchObject({ status: 'resolved', resolvedBy: { id: second.id } });
      expect(resolved.resolvedAt).toEqual(expect.any(String));
      expect(await openComments(thread)).toBe(0);

      const reopen = await owner.put(thread.reply(comment.id, reply.id), { resolved: false });
      expect(reopen.status).toBe(200);
      expectConforms(reopen, thread.operationIds.updateReply);
      const reopened = await getComment(thread, comment.id);
      expect(reopened.status).toBe('open');
      expect(reopened).not.toHaveProperty('resolvedAt');
      expect(reopened).not.toHaveProperty('resolvedBy');
      expect(await openComments(thread)).toBe(1);
    });

    it('is a 400 on a reply to a space comment, which stays open', async () => {
      const thread = await makeThread(t, org, 'space');
      const comment = await postComment(t, thread, commenter.client);
      const reply = await postReply(t, thread, second.client, comment.id);
      expectErrorBody(
        await second.client.put(thread.reply(comment.id, reply.id), { resolved: true }),
        400,
      );
      expect((await getComment(thread, comment.id)).status).toBe('open');
      expect(await openComments(thread)).toBe(1);
    });
  });
});
