import type { JSONDocument } from '../content-engine/documents/document';
import { markdownToDocument } from '../content-engine/documents/markdown';
import { resolveStableRefs } from '../content-engine/refs/markdown-refs';
import type { ContentReader } from '../content-engine/reads/content-reader';
import { DomainError, invalidInput } from '../platform/errors/domain-error';
import type { Thread } from './comment-thread';
import { findNodeByKey, hasTableCell } from './document-nodes';
import type { CommentBodyInput } from './dto/comment-body';
import type { PostCommentDto } from './dto/comment.dto';

/** A body as stored: always a document; the markdown too when it was written in markdown. */
export interface StoredBody {
  body: JSONDocument;
  bodyMarkdown: string | null;
}

/** What a new comment is about; a reply is about its comment, and has none. */
export type CommentTarget = Pick<PostCommentDto, 'page' | 'node' | 'tableCell'>;

/** The body to store: the document, and the markdown when it came as markdown. */
export async function storedBody(input: CommentBodyInput): Promise<StoredBody> {
  if ('document' in input) return { body: input.document, bodyMarkdown: null };
  const body = resolveStableRefs(await markdownToDocument(input.markdown));
  // Markdown of nothing but link definitions or HTML comments, say.
  if (body.nodes.length === 0) {
    throw invalidInput('body.markdown must not be empty: it has no content.');
  }
  return { body, bodyMarkdown: input.markdown };
}

/**
 * 400 unless the target exists in the thread's revision: `page` a page of it, `node` the key
 * of a node of that page's document, at any depth, `tableCell` a record and a definition of
 * that node's table; `node` needs `page`, `tableCell` `node`. No target is always right.
 */
export async function checkTarget(
  content: ContentReader,
  thread: Thread,
  input: CommentTarget,
): Promise<void> {
  if (input.node !== undefined && input.page === undefined) {
    throw invalidInput('node: a node is on a page: give page too.');
  }
  if (input.tableCell !== undefined && input.node === undefined) {
    throw invalidInput('tableCell: a table cell is in a node: give node too.');
  }
  if (input.page === undefined) return;
  const revision = await content.readRevision(thread.spaceId, thread.revision);
  let document: JSONDocument | undefined;
  try {
    const read = await content.getPage(revision, input.page, 'document');
    document = 'document' in read.body ? read.body.document : undefined;
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not_found') {
      throw invalidInput(`page: no page ${input.page} in the revision commented on.`);
    }
    throw error;
  }
  if (input.node === undefined) return;
  const node = document ? findNodeByKey(document, input.node) : null;
  if (!node) throw invalidInput(`node: no node ${input.node} on page ${input.page}.`);
  const cell = input.tableCell;
  if (cell && !hasTableCell(node, cell.record, cell.definition)) {
    throw invalidInput(
      `tableCell: node ${input.node} is not a table with record ${cell.record} and definition ${cell.definition}.`,
    );
  }
}
