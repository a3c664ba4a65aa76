import { documentInputProblem } from '../../../content-engine/documents/document-validation';
import { REVIEW_COMMENT_INPUT } from './review.dto';

const DOCUMENT = { object: 'document', data: {}, nodes: [] };

describe('documentInputProblem with the rules of a review comment', () => {
  it.each([
    ['markdown', { markdown: 'Looks good.' }],
    ['a JSON document', { document: DOCUMENT }],
    ['nothing', {}],
  ])('accepts %s', (_label, value) => {
    expect(documentInputProblem(value, 'comment', REVIEW_COMMENT_INPUT)).toBeNull();
  });

  it.each([
    ['a string', 'Looks good.', 'comment must be an object: {markdown} or {document}'],
    ['null', null, 'comment must be an object: {markdown} or {document}'],
    ['an array', [], 'comment must be an object: {markdown} or {document}'],
    ['an unknown property', { html: '<p>' }, 'comment.html is not a property of a document'],
    [
      'both forms',
      { markdown: 'a', document: DOCUMENT },
      'comment must have either markdown or document, not both',
    ],
    ['non-string markdown', { markdown: 1 }, 'comment.markdown must be a string'],
    [
      'too much markdown',
      { markdown: 'x'.repeat(100_001) },
      'comment.markdown must be at most 100000 characters',
    ],
    [
      'a malformed document',
      { document: { object: 'doc' } },
      'comment.document.object must be "document"',
    ],
  ])('names the problem of %s', (_label, value, problem) => {
    expect(documentInputProblem(value, 'comment', REVIEW_COMMENT_INPUT)).toBe(problem);
  });
});
