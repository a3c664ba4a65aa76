import type { JSONDocument } from '../../content-engine/documents/document';
import {
  IsDocumentInput,
  type DocumentInputRules,
} from '../../content-engine/documents/document-validation';

/** Longest markdown body, in characters. */
export const MAX_MARKDOWN_CHARS = 100_000;

/** GitBook's `Document` as a comment's body: `{markdown}` or `{document}`, never empty. */
export type CommentBodyInput = { markdown: string } | { document: JSONDocument };

/** A comment's body: never empty. */
export const COMMENT_BODY_INPUT: DocumentInputRules = {
  maxMarkdownChars: MAX_MARKDOWN_CHARS,
  refuseEmpty: 'a comment cannot be empty',
};

/** class-validator: the property is a non-empty comment body. */
export const IsCommentBody = (): PropertyDecorator => IsDocumentInput(COMMENT_BODY_INPUT);
