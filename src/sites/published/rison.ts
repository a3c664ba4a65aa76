/**
 * Rison (https://github.com/Nanonid/rison), the URL-friendly JSON GitBook's preview `claims`
 * are written in: `(plan:pro,beta:!t,tags:!(a,'b c'),n:3)`. Values: objects `(k:v,…)`, arrays
 * `!(…)`, `!t`, `!f`, `!n`, numbers, quoted strings (`'…'`, `!'` and `!!` escape) and bare
 * words. Returns the value, or throws an Error saying where the text is not Rison.
 */
export function parseRison(text: string): unknown {
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`${what} at character ${at + 1}`);
  };
  // Characters that may not appear in a bare word (Rison's `not_idchar`).
  const NOT_ID = " '!:(),*@$";
  const word = (): string => {
    const start = at;
    while (at < text.length && !NOT_ID.includes(text[at])) at++;
    if (at === start) fail('expected a value');
    return text.slice(start, at);
  };
  const string = (): string => {
    at++; // the opening quote
    let out = '';
    while (at < text.length) {
      const c = text[at++];
      if (c === "'") return out;
      if (c === '!') {
        const next = text[at++];
        if (next !== '!' && next !== "'") fail('invalid escape');
        out += next;
      } else out += c;
    }
    return fail('unterminated string');
  };
  const value = (): unknown => {
    const c = text[at];
    if (c === undefined) return fail('unexpected end');
    if (c === "'") return string();
    if (c === '(') {
      at++;
      const object: Record<string, unknown> = {};
      if (text[at] === ')') {
        at++;
        return object;
      }
      for (;;) {
        const key = text[at] === "'" ? string() : word();
        if (text[at++] !== ':') fail('expected ":"');
        Object.defineProperty(object, key, {
          value: value(),
          enumerable: true,
          writable: true,
          configurable: true,
        });
        const next = text[at++];
        if (next === ')') return object;
        if (next !== ',') fail('expected "," or ")"');
      }
    }
    if (c === '!') {
      const next = text[at + 1];
      at += 2;
      if (next === 't') return true;
      if (next === 'f') return false;
      if (next === 'n') return null;
      if (next === '(') {
        const list: unknown[] = [];
        if (text[at] === ')') {
          at++;
          return list;
        }
        for (;;) {
          list.push(value());
          const sep = text[at++];
          if (sep === ')') return list;
          if (sep !== ',') fail('expected "," or ")"');
        }
      }
      return fail('invalid "!" value');
    }
    const bare = word();
    return /^-?(0|[1-9]\d*)(\.\d+)?(e[+-]?\d+)?$/.test(bare) ? Number(bare) : bare;
  };
  const result = value();
  if (at !== text.length) fail('unexpected text');
  return result;
}
