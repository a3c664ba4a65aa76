import { documentInputProblem } from '../../content-engine/documents/document-validation';
import { COMMENT_BODY_INPUT } from './comment-body';

const commentBodyProblem = (value: unknown, path: string) =>
  documentInputProblem(value, path, COMMENT_BODY_INPUT);

const paragraph = {
  object: 'block',
  type: 'paragraph',
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Hi', marks: [] }] }],
};

describe('documentInputProblem with the rules of a comment body', () => {
  it.each([
    [{ markdown: 'Hi' }],
    [{ document: { object: 'document', data: {}, nodes: [paragraph] } }],
  ])('accepts %j', (body) => {
    expect(commentBodyProblem(body, 'body')).toBeNull();
  });

  it.each([
    ['a string', 'Hi', 'body must be an object: {markdown} or {document}'],
    ['an empty body', {}, 'body must have markdown or document: a comment cannot be empty'],
    ['blank markdown', { markdown: ' \n ' }, 'body.markdown must not be empty'],
    ['markdown not a string', { markdown: 1 }, 'body.markdown must be a string'],
    ['an unknown property', { html: '<p>' }, 'body.html is not a property of a document'],
    [
      'both forms',
      { markdown: 'Hi', document: { object: 'document', data: {}, nodes: [paragraph] } },
      'body must have either markdown or document, not both',
    ],
    [
      'a document without nodes',
      { document: { object: 'document', data: {}, nodes: [] } },
      'body.document must have at least one node: a comment cannot be empty',
    ],
    [
      'a malformed document',
      { document: { object: 'doc' } },
      'body.document.object must be "document"',
    ],
  ])('refuses %s', (_, body, problem) => {
    expect(commentBodyProblem(body, 'body')).toBe(problem);
  });
});
