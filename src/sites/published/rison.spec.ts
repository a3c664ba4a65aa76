import { parseRison } from './rison';

describe('parseRison', () => {
  it('reads objects, arrays, literals, numbers, quoted and bare strings', () => {
    expect(
      parseRison("(plan:pro,beta:!t,off:!f,none:!n,n:-3.5,tags:!(a,'b c','it!'s'),e:(),l:!())"),
    ).toEqual({
      plan: 'pro',
      beta: true,
      off: false,
      none: null,
      n: -3.5,
      tags: ['a', 'b c', "it's"],
      e: {},
      l: [],
    });
    expect(parseRison("(unsigned:(beta:!t),'a b':'x!!y')")).toEqual({
      unsigned: { beta: true },
      'a b': 'x!y',
    });
  });

  it('keeps __proto__ a plain key', () => {
    const parsed = parseRison('(__proto__:(polluted:!t))') as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['__proto__']);
  });

  it('throws on what is not Rison', () => {
    for (const text of ['', '(a:1', "'open", '(a:1)x', '!x', '(:1)', '(a)', '!(1 2)']) {
      expect(() => parseRison(text)).toThrow(/at character/);
    }
  });
});
