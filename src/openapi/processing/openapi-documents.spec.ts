import { countNodes, parseDocument, relativePath, rootPath } from './openapi-documents';
import { ProcessingFailure } from './openapi-problems';

function failure(fn: () => unknown): ProcessingFailure {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ProcessingFailure);
    return error as ProcessingFailure;
  }
  throw new Error('expected a ProcessingFailure');
}

describe('parseDocument', () => {
  it('reads JSON, keeping the key order', () => {
    const parsed = parseDocument('{"openapi":"3.0.0","info":{},"paths":{"/b":{},"/a":{}}}', 'x');
    expect(parsed.format).toBe('json');
    expect(Object.keys((parsed.document as { paths: object }).paths)).toEqual(['/b', '/a']);
  });

  it('reads YAML with the core schema: dates and version numbers stay as written', () => {
    const parsed = parseDocument(
      'openapi: 3.1.0\ninfo:\n  version: "1.0"\n  x-date: 2024-01-01\n',
      'x',
    );
    expect(parsed).toEqual({
      format: 'yaml',
      document: { openapi: '3.1.0', info: { version: '1.0', 'x-date': '2024-01-01' } },
    });
  });

  it('reads YAML flow style that is not JSON', () => {
    expect(parseDocument("{openapi: '3.0.0'}", 'x')).toEqual({
      format: 'yaml',
      document: { openapi: '3.0.0' },
    });
  });

  it('ignores a byte order mark', () => {
    expect(parseDocument('\uFEFF{"a":1}', 'x').document).toEqual({ a: 1 });
  });

  it('says where YAML is broken', () => {
    const error = failure(() => parseDocument('a: 1\nb: [2\n', 'spec.yaml'));
    expect(error.problems).toEqual([
      {
        code: 'SYNTAX_ERROR',
        message: expect.stringMatching(
          /^spec\.yaml: invalid JSON or YAML at line \d+, column \d+: /,
        ),
      },
    ]);
    expect(error.errorCode).toBe('PARSE_ERROR');
  });

  it.each([
    ['a list', '[1, 2]'],
    ['a string', '"text"'],
    ['nothing', ''],
    ['null', 'null'],
  ])('refuses %s', (_label, text) => {
    const error = failure(() => parseDocument(text, 'spec.json'));
    expect(error.problems[0]).toMatchObject({ code: 'SYNTAX_ERROR' });
  });

  it('refuses YAML whose aliases expand past the limit', () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i <= 8; i++) {
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    }
    const error = failure(() => parseDocument(lines.join('\n'), 'bomb.yaml'));
    expect(error.problems[0].message).toMatch(/^bomb\.yaml: the document expands to more than/);
  });
});

describe('countNodes', () => {
  it('counts each use of a shared node, and stops past the limit', () => {
    const leaf = { a: 1, b: 2 };
    expect(countNodes({ x: leaf, y: leaf }, 100)).toBe(7);
    expect(countNodes({ x: leaf, y: leaf }, 3)).toBe(4);
  });
});

describe('filesystem paths', () => {
  const root = new URL('http://h.test/specs/v1/openapi.yaml');

  it.each([
    ['http://h.test/specs/v1/schemas/pet.yaml', 'schemas/pet.yaml'],
    ['http://h.test/specs/common/errors.yaml', '../common/errors.yaml'],
    ['http://h.test/specs/v1/my%20schema.yaml', 'my schema.yaml'],
    ['http://h.test/specs/v1/pet.yaml?v=2', 'pet.yaml?v=2'],
    ['http://h.test/specs/v1/bad%E0.yaml', 'bad%E0.yaml'],
  ])('%s is %s from the root', (target, expected) => {
    expect(relativePath(root, new URL(target))).toBe(expected);
  });

  it.each([
    ['http://h.test/specs/v1/openapi.yaml', 'openapi.yaml'],
    ['http://h.test/api/', 'openapi'],
    ['http://h.test/spec?format=json', 'spec?format=json'],
  ])('the root at %s is %s', (url, expected) => {
    expect(rootPath(new URL(url))).toBe(expected);
  });
});
