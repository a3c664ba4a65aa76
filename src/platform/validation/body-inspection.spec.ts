import {
  findBodyProblem,
  MAX_ARRAY_ITEMS,
  MAX_BODY_DEPTH,
  unsafeTextProblem,
} from './body-inspection';

function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = i % 2 ? { child: value } : [value];
  return value;
}

describe('body inspection', () => {
  it.each([
    ['plain', undefined],
    ['', undefined],
    ['emoji 😀 and accents é', undefined],
    ['a\u0000b', 'must not contain the character U+0000'],
    ['a\ud800b', 'must be valid Unicode text (it holds a lone surrogate)'],
    ['a\udc00', 'must be valid Unicode text (it holds a lone surrogate)'],
    ['\ude00\ud83d', 'must be valid Unicode text (it holds a lone surrogate)'],
  ])('judges %j: %s', (text, problem) => {
    expect(unsafeTextProblem(text)).toBe(problem);
  });

  it('accepts ordinary bodies, including documents at the depth limit', () => {
    expect(findBodyProblem(undefined)).toBeUndefined();
    expect(findBodyProblem({ title: 'x', changes: [{ nodes: [1, true, null] }] })).toBeUndefined();
    expect(findBodyProblem(nested(MAX_BODY_DEPTH - 1))).toBeUndefined();
  });

  it('names the field that holds bad text, nested in objects and arrays', () => {
    expect(findBodyProblem({ changes: [{ ok: 'x' }, { document: { title: 'a\u0000' } }] })).toBe(
      'changes.1.document.title must not contain the character U+0000.',
    );
    expect(findBodyProblem({ email: 'a\ud800@example.com' })).toBe(
      'email must be valid Unicode text (it holds a lone surrogate).',
    );
    expect(findBodyProblem(['x\u0000'])).toBe('0 must not contain the character U+0000.');
  });

  it('refuses bad text in property names', () => {
    expect(findBodyProblem({ metadata: { 'a\u0000': 1 } })).toBe(
      'Property names in metadata must not contain the character U+0000.',
    );
    expect(findBodyProblem({ '\ud800': 1 })).toMatch(/^Property names in the request body/);
  });

  it('refuses a body nested past the limit, without overflowing the stack', () => {
    expect(findBodyProblem(nested(MAX_BODY_DEPTH + 1))).toMatch(/nested deeper than 256 levels/);
    expect(findBodyProblem(nested(200_000))).toMatch(/nested deeper/);
  });

  it('refuses arrays and objects past the item limit, naming them', () => {
    expect(findBodyProblem({ list: new Array(MAX_ARRAY_ITEMS).fill(0) })).toBeUndefined();
    expect(findBodyProblem({ list: new Array(MAX_ARRAY_ITEMS + 1).fill(0) })).toBe(
      `list has more than ${MAX_ARRAY_ITEMS} items.`,
    );
    const wide = Object.fromEntries(
      Array.from({ length: MAX_ARRAY_ITEMS + 1 }, (_, i) => [`k${i}`, i]),
    );
    expect(findBodyProblem({ wide })).toBe(`wide has more than ${MAX_ARRAY_ITEMS} properties.`);
  });

  it('reports the first problem in document order', () => {
    expect(findBodyProblem({ a: 'fine', b: 'x\u0000', c: 'y\u0000' })).toMatch(/^b /);
  });
});
