import { registerDecorator } from 'class-validator';
import type { JSONDocument } from '../../content-engine/documents/document';
import { richDocumentProblem } from '../../orgs/agent-instructions/rich-document';
import { charCount } from '../../platform/validation/chars';

/** Longest markdown body, in characters. */
export const MAX_MARKDOWN_CHARS = 100_000;

/** GitBook's `Document` as a comment's body: `{markdown}` or `{document}`, never empty. */
export type CommentBodyInput = { markdown: string } | { document: JSONDocument };

/** The first problem of `value` as a comment body, named by its path; null when there is none. */
export function commentBodyProblem(value: unknown, path: string): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `${path} must be an object: {markdown} or {document}`;
  }
  const keys = Object.keys(value);
  const unknown = keys.find((key) => key !== 'markdown' && key !== 'document');
  if (unknown !== undefined) return `${path}.${unknown} is not a property of a document`;
  if (keys.length === 0) return `${path} must have markdown or document: a comment cannot be empty`;
  if (keys.length > 1) return `${path} must have either markdown or document, not both`;
  const input = value as { markdown?: unknown; document?: unknown };
  if ('markdown' in input) {
    if (typeof input.markdown !== 'string') return `${path}.markdown must be a string`;
    if (input.markdown.trim() === '') return `${path}.markdown must not be empty`;
    if (charCount(input.markdown) > MAX_MARKDOWN_CHARS) {
      return `${path}.markdown must be at most ${MAX_MARKDOWN_CHARS} characters`;
    }
    return null;
  }
  const problem = richDocumentProblem(input.document, `${path}.document`);
  if (problem) return problem;
  if ((input.document as JSONDocument).nodes.length === 0) {
    return `${path}.document must have at least one node: a comment cannot be empty`;
  }
  return null;
}

/** class-validator: the property is a non-empty comment body (see commentBodyProblem). */
export function IsCommentBody(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCommentBody',
      target: target.constructor,
      propertyName: String(propertyName),
      options: {
        message: ({ value, property }) =>
          commentBodyProblem(value, property) ?? `${property} is invalid`,
      },
      validator: {
        validate: (value: unknown, args) =>
          commentBodyProblem(value, args?.property ?? 'body') === null,
      },
    });
}
