import { diffWordsWithSpace } from 'diff';
import type { DocumentNode } from '../documents/document';

/** A run of text in an inline difference: in both versions, only the new one, or only the old. */
export interface InlineSegment {
  op: 'equal' | 'insert' | 'delete';
  text: string;
}

/**
 * The text of a node as a reader sees it: its leaves in order, nested blocks on lines of their
 * own (a list's items, a code block's lines). Marks, links and fragments (captions, cells) are
 * not text here.
 */
export function plainText(node: DocumentNode): string {
  if (node.object === 'text') return node.leaves.map((leaf) => leaf.text).join('');
  const children = node.nodes ?? [];
  const separator = children.some((child) => child.object === 'block') ? '\n' : '';
  return children.map(plainText).join(separator);
}

/**
 * The word-level differences from `before` to `after` (jsdiff's `diffWordsWithSpace`: words and
 * the whitespace between them are tokens, so a changed space or line break shows too).
 */
export function inlineDiff(before: string, after: string): InlineSegment[] {
  return diffWordsWithSpace(before, after).map((part) => ({
    op: part.added ? 'insert' : part.removed ? 'delete' : 'equal',
    text: part.value,
  }));
}
