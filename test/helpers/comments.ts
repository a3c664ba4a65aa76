import type { TestApp } from './app';
import type { CommentBody, DocumentBody, DocumentNode, ReplyBody } from './bodies';
import type { Client } from './client';
import { expectConforms } from './conformance';
import { insertPage } from './content';
import type { CommentFields, TestOrganization } from './factories';

/**
 * Comment threads live on a space or on a change request, through two route families that
 * behave alike (`/v1/spaces/:spaceId/comments…` and
 * `/v1/spaces/:spaceId/change-requests/:changeRequestId/comments…`). These helpers build a
 * thread of either kind and call its routes, so the comment tests run one table over both.
 */

export type ThreadKind = 'space' | 'change request';

export const THREAD_KINDS: ThreadKind[] = ['space', 'change request'];

export type CommentOperation =
  | 'list'
  | 'post'
  | 'get'
  | 'update'
  | 'delete'
  | 'listReplies'
  | 'postReply'
  | 'getReply'
  | 'updateReply'
  | 'deleteReply'
  | 'listCommenters';

/** GitBook's operationId of each comment route, per kind of thread. */
export const COMMENT_OPERATION_IDS: Record<ThreadKind, Record<CommentOperation, string>> = {
  space: {
    list: 'listCommentsInSpace',
    post: 'postCommentInSpace',
    get: 'getCommentInSpace',
    update: 'updateCommentInSpace',
    delete: 'deleteCommentInSpace',
    listReplies: 'listCommentRepliesInSpace',
    postReply: 'postCommentReplyInSpace',
    getReply: 'getCommentReplyInSpace',
    updateReply: 'updateCommentReplyInSpace',
    deleteReply: 'deleteCommentReplyInSpace',
    listCommenters: 'listCommentersInSpace',
  },
  'change request': {
    list: 'listCommentsInChangeRequest',
    post: 'postCommentInChangeRequest',
    get: 'getCommentInChangeRequest',
    update: 'updateCommentInChangeRequest',
    delete: 'deleteCommentInChangeRequest',
    listReplies: 'listCommentRepliesInChangeRequest',
    postReply: 'postCommentReplyInChangeRequest',
    getReply: 'getCommentReplyInChangeRequest',
    updateReply: 'updateCommentReplyInChangeRequest',
    deleteReply: 'deleteCommentReplyInChangeRequest',
    listCommenters: 'listCommentersInChangeRequest',
  },
};

// ---------------------------------------------------------------------------------------------
// Fixtures

/** A page of the fixture space, with the keys of nodes of its document. */
export interface PageFixture {
  id: string;
  /** The key of its first paragraph. */
  paragraph: string;
  /** Its table: the table node's key and one record and one column (definition) of it. */
  table: { key: string; record: string; definition: string };
}

export interface Thread {
  kind: ThreadKind;
  org: TestOrganization;
  spaceId: string;
  /** Set on a change-request thread. */
  changeRequest?: { id: string; number: number };
  /** The space or the change request the comments belong to. */
  base: string;
  comments: string;
  comment(commentId: string): string;
  replies(commentId: string): string;
  reply(commentId: string, replyId: string): string;
  commenters: string;
  /** Pages made in the space before the thread opened; both are in its revision. */
  guide: PageFixture;
  reference: PageFixture;
  operationIds: Record<CommentOperation, string>;
}

export const GUIDE_MARKDOWN =
  '# Guide\n\nFirst paragraph.\n\n| Name | Value |\n| --- | --- |\n| alpha | 1 |\n';
export const REFERENCE_MARKDOWN = '# Reference\n\nAnother paragraph.\n';

/** The thread's paths, below `base` (a space or a change request). */
export function threadPaths(base: string) {
  const comments = `${base}/comments`;
  const comment = (commentId: string) => `${comments}/${commentId}`;
  const replies = (commentId: string) => `${comment(commentId)}/replies`;
  return {
    base,
    comments,
    comment,
    replies,
    reply: (commentId: string, replyId: string) => `${replies(commentId)}/${replyId}`,
    commenters: `${base}/commenters`,
  };
}

/** The nodes of a page document, depth first. */
export function allNodes(nodes: DocumentNode[] = []): DocumentNode[] {
  return nodes.flatMap((node) => [node, ...allNodes(node.nodes)]);
}

/** A page of `spaceId` (or of its change request `changeRequestId`) with its node keys. */
export async function pageFixture(
  client: Client,
  spaceId: string,
  pageId: string,
  changeRequestId?: string,
): Promise<PageFixture> {
  const content = changeRequestId
    ? `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content`
    : `/v1/spaces/${spaceId}/content`;
  const res = await client.get(`${content}/page/${pageId}?format=document`).expect(200);
  const nodes = allNodes((res.body as { document?: DocumentBody }).document?.nodes);
  const paragraph = nodes.find((node) => node.type === 'paragraph' && node.key);
  const table = nodes.find((node) => node.type === 'table' && node.key);
  const records = Object.keys((table?.data?.records as object | undefined) ?? {});
  const definitions = Object.keys((table?.data?.definition as object | undefined) ?? {});
  return {
    id: pageId,
    paragraph: paragraph?.key ?? '',
    table: { key: table?.key ?? '', record: records[0] ?? '', definition: definitions[0] ?? '' },
  };
}

/**
 * A space of the organization with two pages, Guide (a paragraph and a table) and Reference (a
 * paragraph), written through a change request and merged into the primary.
 */
export async function spaceWithPages(t: TestApp, org: TestOrganization) {
  const owner = org.owner.client;
  const { id: spaceId } = await t.factories.space(org, { title: 'Handbook' });
  await t.factories.changeRequest(org, spaceId, {
    subject: 'Pages',
    changes: [insertPage('Guide', GUIDE_MARKDOWN), insertPage('Reference', REFERENCE_MARKDOWN)],
    merge: true,
  });
  const pages = await owner.get(`/v1/spaces/${spaceId}/content/pages`).expect(200);
  const byTitle = (title: string) => {
    const page = (pages.body as { pages: { id: string; title: string }[] }).pages.find(
      (candidate) => candidate.title === title,
    );
    if (!page) throw new Error(`No page ${title} in the fixture space`);
    return page.id;
  };
  const guide = await pageFixture(owner, spaceId, byTitle('Guide'));
  const reference = await pageFixture(owner, spaceId, byTitle('Reference'));
  expect(guide.paragraph).not.toBe('');
  expect(guide.table.record).not.toBe('');
  expect(reference.paragraph).not.toBe('');
  return { spaceId, guide, reference };
}

/**
 * A fresh thread of `kind` in the organization: the space of `spaceWithPages`, or a change
 * request opened on it by the owner (its head then holds the same pages).
 */
export async function makeThread(
  t: TestApp,
  org: TestOrganization,
  kind: ThreadKind,
): Promise<Thread> {
  const { spaceId, guide, reference } = await spaceWithPages(t, org);
  let base = `/v1/spaces/${spaceId}`;
  let changeRequest: Thread['changeRequest'];
  if (kind === 'change request') {
    const { id, number } = await t.factories.changeRequest(org, spaceId, {
      subject: 'Review me',
    });
    changeRequest = { id, number };
    base = `${base}/change-requests/${changeRequest.id}`;
  }
  return {
    kind,
    org,
    spaceId,
    changeRequest,
    ...threadPaths(base),
    guide,
    reference,
    operationIds: COMMENT_OPERATION_IDS[kind],
  };
}

/** The thread of the space a change-request thread belongs to (the thread itself for a space). */
export function spaceThreadOf(thread: Thread): Thread {
  return {
    ...thread,
    kind: 'space',
    changeRequest: undefined,
    ...threadPaths(`/v1/spaces/${thread.spaceId}`),
    operationIds: COMMENT_OPERATION_IDS.space,
  };
}

/** The revision comments of the thread are made on: the space's primary or the change request's head. */
export async function headRevision(thread: Thread): Promise<string> {
  const res = await thread.org.owner.client.get(thread.base).expect(200);
  return (res.body as { revision: string }).revision;
}

/** The `comments` count of the thread's space or change request. */
export async function openComments(thread: Thread): Promise<number> {
  const res = await thread.org.owner.client.get(thread.base).expect(200);
  return (res.body as { comments: number }).comments;
}

/** The `comments` count of the space (whatever the thread's kind). */
export async function spaceComments(thread: Thread): Promise<number> {
  const res = await thread.org.owner.client.get(`/v1/spaces/${thread.spaceId}`).expect(200);
  return (res.body as { comments: number }).comments;
}

/**
 * The seed answers 201 to comment and reply creations where GitBook's spec declares 200 (seed
 * wins, REFERENCE.md §1): the body is checked against the schema of that 200.
 */
export function expectCreatedConforms(res: { status: number; body: unknown }, operationId: string) {
  expect(res.status).toBe(201);
  expectConforms({ status: 200, body: res.body }, operationId);
}

/**
 * Posts a comment as `client`, one second after the last post so that the thread's order is
 * its posting order; answers the created comment.
 */
export async function postComment(
  t: TestApp,
  thread: Thread,
  client: Client,
  fields: Omit<CommentFields, 'by' | 'changeRequest'> = { body: { markdown: 'A comment.' } },
): Promise<CommentBody> {
  return t.factories.later.comment(thread.org, thread.spaceId, {
    ...fields,
    changeRequest: thread.changeRequest?.id,
    by: client,
  });
}

/** Posts a reply as `client`, one second after the last post. */
export async function postReply(
  t: TestApp,
  thread: Thread,
  client: Client,
  commentId: string,
  markdown = 'A reply.',
): Promise<ReplyBody> {
  t.clock.advance(1000);
  const res = await client.post(thread.replies(commentId), { body: { markdown } });
  expect(res.status).toBe(201);
  return res.body as ReplyBody;
}

/** A markdown body as read back: the same text, give or take a trailing newline. */
export function expectMarkdown(body: { markdown?: string }, text: string): void {
  expect(body.markdown?.replace(/\n+$/, '')).toBe(text.replace(/\n+$/, ''));
}

/** `{error:{code,message}}` with that code. */
export function expectErrorBody(res: { status: number; body: unknown }, code: number): void {
  expect(res.status).toBe(code);
  expect(res.body).toEqual({ error: { code, message: expect.any(String) } });
}

/** One paragraph, as a JSON document body. */
export function paragraphDocument(text: string): DocumentBody {
  return {
    object: 'document',
    data: {},
    nodes: [
      {
        object: 'block',
        type: 'paragraph',
        data: {},
        nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
      },
    ],
  };
}

/** The plain text of a document. */
export function textOf(document: DocumentBody | undefined): string {
  return allNodes(document?.nodes)
    .flatMap((node) => node.leaves ?? [])
    .map((leaf) => leaf.text)
    .join('');
}
