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
 * Most token edits jsdiff looks for in one block: its cost grows with the edits times the
 * text's length, and a block rewritten at greater length reads as well replaced whole.
 */
export const MAX_INLINE_EDITS = 500;

/**
 * The word-level differences from `before` to `after` (jsdiff's `diffWordsWithSpace`: words and
 * the whitespace between them are tokens, so a changed space or line break shows too). Past
 * MAX_INLINE_EDITS the old text is deleted and the new one inserted, whole.
 */
export function inlineDiff(before: string, after: string): InlineSegment[] {
  const parts = diffWordsWithSpace(before, after, { maxEditLength: MAX_INLINE_EDITS });
  if (!parts) {
    return [
      ...(before ? [{ op: 'delete' as const, text: before }] : []),
      ...(after ? [{ op: 'insert' as const, text: after }] : []),
    ];
  }
  return parts.map((part) => ({
    op: part.added ? 'insert' : part.removed ? 'delete' : 'equal',
    text: part.value,
  }));
}
