import { createTestApp, TestApp } from './helpers/app';
import type { CommentBody, CommentPermissions, PageOf, ReplyBody } from './helpers/bodies';
import type { Client } from './helpers/client';
import {
  type CommentOperation,
  makeThread,
  openComments,
  postComment,
  postReply,
  type Thread,
  THREAD_KINDS,
  threadPaths,
} from './helpers/comments';
import { expectConforms } from './helpers/conformance';
import { invite } from './helpers/content-grants';
import type { TestOrganization, TestUser } from './helpers/factories';

/**
 * Who may do what with comments, on a space and on a change request: reads need view on the
 * space; posting, replying, reacting and resolving need the comment role (read → 403); a caller
 * that cannot see the space (another organization, a guest it is not shared with) gets 404 on
 * every route, as for a space or change request that does not exist. Editing and deleting
 * others' comments are in comments.e2e-spec.ts and comments-replies.e2e-spec.ts; here, the
 * `permissions` each caller is told.
 */

type ThreadPaths = ReturnType<typeof threadPaths>;

/** A thread with one comment and one reply, both by the `comment` member. */
interface Fixture {
  thread: Thread;
  comment: string;
  reply: string;
}

interface Call {
  op: CommentOperation;
  method: 'get' | 'post' | 'put' | 'delete';
  path: (paths: ThreadPaths, fixture: Fixture) => string;
  body?: object;
  /** A write that needs the comment role: a `read` member gets 403. */
  write?: true;
}

/** Every comment route once; the deletes last, so that a wrong answer does not hide others. */
const CALLS: Call[] = [
  { op: 'list', method: 'get', path: (p) => p.comments },
  {
    op: 'post',
    method: 'post',
    path: (p) => p.comments,
    body: { body: { markdown: 'Hi.' } },
    write: true,
  },
  { op: 'get', method: 'get', path: (p, f) => p.comment(f.comment) },
  {
    op: 'update',
    method: 'put',
    path: (p, f) => p.comment(f.comment),
    body: { addedReactions: ['👍'] },
    write: true,
  },
  { op: 'listReplies', method: 'get', path: (p, f) => p.replies(f.comment) },
  {
    op: 'postReply',
    method: 'post',
    path: (p, f) => p.replies(f.comment),
    body: { body: { markdown: 'Hi.' } },
    write: true,
  },
  { op: 'getReply', method: 'get', path: (p, f) => p.reply(f.comment, f.reply) },
  {
    op: 'updateReply',
    method: 'put',
    path: (p, f) => p.reply(f.comment, f.reply),
    body: { addedReactions: ['👍'] },
    write: true,
  },
  { op: 'listCommenters', method: 'get', path: (p) => p.commenters },
  { op: 'deleteReply', method: 'delete', path: (p, f) => p.reply(f.comment, f.reply) },
  { op: 'delete', method: 'delete', path: (p, f) => p.comment(f.comment) },
];

describe('comment access', () => {
  let t: TestApp;
  let org: TestOrganization;
  let owner: Client;
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

  function send(client: Client, call: Call, paths: ThreadPaths, fixture: Fixture) {
    const path = call.path(paths, fixture);
    switch (call.method) {
      case 'get':
        return client.get(path);
      case 'delete':
        return client.delete(path);
      case 'post':
        return client.post(path, call.body);
      case 'put':
        return client.put(path, call.body);
    }
  }

  /** `[operation, status, error body?]` of every call, to compare with what is expected. */
  async function answers(client: Client, fixture: Fixture, paths: ThreadPaths = fixture.thread) {
    const result: [string, number, unknown][] = [];
    for (const call of CALLS) {
      const res = await send(client, call, paths, fixture);
      result.push([
        fixture.thread.operationIds[call.op],
        res.status,
        res.status >= 400 ? res.body : undefined,
      ]);
    }
    return result;
  }

  const everyCall = (fixture: Fixture, status: number) =>
    CALLS.map((call): [string, number, unknown] => [
      fixture.thread.operationIds[call.op],
      status,
      { error: { code: status, message: expect.any(String) } },
    ]);

  describe.each(THREAD_KINDS)('on a %s', (kind) => {
    async function fixture(): Promise<Fixture> {
      const thread = await makeThread(t, org, kind);
      const comment = await postComment(t, thread, commenter.client);
      const reply = await postReply(t, thread, commenter.client, comment.id);
      return { thread, comment: comment.id, reply: reply.id };
    }

    /** The comment and its reply are as the fixture made them. */
    async function expectUntouched(f: Fixture) {
      const comment = (await owner.get(f.thread.comment(f.comment)).expect(200))
        .body as CommentBody;
      expect(comment).toMatchObject({ status: 'open', replies: 1, reactions: [] });
      const reply = (await owner.get(f.thread.reply(f.comment, f.reply)).expect(200))
        .body as ReplyBody;
      expect(reply.reactions).toEqual([]);
      expect(await openComments(f.thread)).toBe(1);
    }

    it('answers 404 on every route to a member of another organization', async () => {
      const f = await fixture();
      const stranger = (await t.factories.organization()).owner.client;
      expect(await answers(stranger, f)).toEqual(everyCall(f, 404));
      await expectUntouched(f);
    });

    it('answers 404 on every route to a guest the space is not shared with', async () => {
      const f = await fixture();
      const guest = await t.factories.asMember(org, null);
      expect(await answers(guest, f)).toEqual(everyCall(f, 404));
      await expectUntouched(f);
    });

    it('answers 401 on every route without a token', async () => {
      const f = await fixture();
      const result = await answers(t.anonymous, f);
      expect(result.map(([op, status]) => [op, status])).toEqual(
        CALLS.map((call) => [f.thread.operationIds[call.op], 401]),
      );
      await expectUntouched(f);
    });

    it('answers 404 on every route for an unknown space or change request', async () => {
      const f = await fixture();
      const { spaceId, changeRequest } = f.thread;
      const elsewhere = await makeThread(t, org, 'space');
      const unknown = changeRequest
        ? [
            `/v1/spaces/no-such-space/change-requests/${changeRequest.id}`,
            `/v1/spaces/${spaceId}/change-requests/no-such-change-request`,
            `/v1/spaces/${spaceId}/change-requests/999`,
            // The change request exists, in another space.
            `/v1/spaces/${elsewhere.spaceId}/change-requests/${changeRequest.id}`,
          ]
        : ['/v1/spaces/no-such-space'];
      for (const base of unknown) {
        expect(await answers(owner, f, threadPaths(base))).toEqual(everyCall(f, 404));
      }
      await expectUntouched(f);
    });

    it('lets a read member read every route, and answers 403 to its posts, replies, reactions and resolutions', async () => {
      const f = await fixture();
      // The deletes act on the comment member's comment and reply: 403 too.
      const result = await answers(reader.client, f);
      expect(result.map(([op, status]) => [op, status])).toEqual(
        CALLS.map((call) => [
          f.thread.operationIds[call.op],
          call.write || call.method === 'delete' ? 403 : 200,
        ]),
      );
      for (const [, status, body] of result) {
        if (status === 403)
          expect(body).toEqual({ error: { code: 403, message: expect.any(String) } });
      }
      const resolve = await reader.client.put(f.thread.comment(f.comment), { resolved: true });
      expect(resolve.status).toBe(403);
      const listed = await reader.client.get(f.thread.comments).expect(200);
      expectConforms(listed, f.thread.operationIds.list);
      expect((listed.body as PageOf<CommentBody>).items.map((item) => item.id)).toEqual([
        f.comment,
      ]);
      await expectUntouched(f);
    });

    it('lets a guest the space is shared with comment with the comment role, not with read', async () => {
      const f = await fixture();
      const guestCommenter = await t.factories.member(org, null);
      const guestReader = await t.factories.member(org, null);
      await invite(owner, 'space', f.thread.spaceId, {
        role: 'comment',
        users: [guestCommenter.id],
      });
      await invite(owner, 'space', f.thread.spaceId, { role: 'read', users: [guestReader.id] });

      const posted = await postComment(t, f.thread, guestCommenter.client);
      expect(posted.postedBy.id).toBe(guestCommenter.id);
      await postReply(t, f.thread, guestCommenter.client, f.comment);
      await guestReader.client.get(f.thread.comment(f.comment)).expect(200);
      await guestReader.client.get(f.thread.replies(f.comment)).expect(200);
      const refused = await guestReader.client.post(f.thread.comments, {
        body: { markdown: 'Hi.' },
      });
      expect(refused.status).toBe(403);
      expect(await openComments(f.thread)).toBe(2);
    });

    it('tells each caller what it may do with a comment and a reply (permissions)', async () => {
      const f = await fixture();
      const all = { view: true, edit: true, delete: true, reply: true };
      const expected: [string, TestUser | { client: Client }, CommentPermissions][] = [
        ['the author', commenter, all],
        ['another commenter', second, { view: true, edit: false, delete: false, reply: true }],
        ['an editor', editor, { view: true, edit: false, delete: false, reply: true }],
        ['a reader', reader, { view: true, edit: false, delete: false, reply: false }],
        ['an admin', admin, { view: true, edit: false, delete: true, reply: true }],
        ['the owner', org.owner, { view: true, edit: false, delete: true, reply: true }],
      ];
      for (const [label, caller, permissions] of expected) {
        const comment = await caller.client.get(f.thread.comment(f.comment));
        expect(comment.status).toBe(200);
        expectConforms(comment, f.thread.operationIds.get);
        const reply = await caller.client.get(f.thread.reply(f.comment, f.reply));
        expect(reply.status).toBe(200);
        expectConforms(reply, f.thread.operationIds.getReply);
        const listed = await caller.client.get(f.thread.comments).expect(200);
        const replies = await caller.client.get(f.thread.replies(f.comment)).expect(200);
        expect({
          label,
          comment: (comment.body as CommentBody).permissions,
          reply: (reply.body as ReplyBody).permissions,
          listedComment: (listed.body as PageOf<CommentBody>).items[0].permissions,
          listedReply: (replies.body as PageOf<ReplyBody>).items[0].permissions,
        }).toEqual({
          label,
          comment: permissions,
          reply: permissions,
          listedComment: permissions,
          listedReply: permissions,
        });
      }
    });
  });
});
