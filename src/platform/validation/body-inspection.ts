/**
 * What Bindery refuses in any parsed JSON body, whatever the route, before any validation or
 * work: structures too deep or too wide to walk safely, and text PostgreSQL cannot store.
 */

/** Deep enough for any rich document, far below what recursive validation can walk. */
export const MAX_BODY_DEPTH = 256;

/**
 * Items of one array, or properties of one object: far above any list a route accepts (their
 * DTOs set their own, smaller bounds).
 */
export const MAX_ARRAY_ITEMS = 10_000;

const SURROGATE = /[\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Why `text` cannot be stored as PostgreSQL text, or undefined when it can: U+0000 is refused
 * by `text` and `jsonb`, and a lone UTF-16 surrogate is not a character at all (it could only
 * be stored altered).
 */
export function unsafeTextProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain the character U+0000';
  if (SURROGATE.test(text) && LONE_SURROGATE.test(text))
    return 'must be valid Unicode text (it holds a lone surrogate)';
  return undefined;
}

/** `changes.0.document`; the empty path is the body itself. */
function describePath(path: string): string {
  return path === '' ? 'the request body' : path;
}

function join(path: string, key: string | number): string {
  return path === '' ? String(key) : `${path}.${key}`;
}

/**
 * The first problem of a parsed body, as a message naming the field, or undefined. Iterative,
 * so that a hostile body cannot overflow the stack of the check itself.
 */
export function findBodyProblem(body: unknown): string | undefined {
  const stack: [value: unknown, path: string, depth: number][] = [[body, '', 1]];
  while (stack.length > 0) {
    const [value, path, depth] = stack.pop() as [unknown, string, number];
    if (typeof value === 'string') {
      const problem = unsafeTextProblem(value);
      if (problem) return `${describePath(path)} ${problem}.`;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_BODY_DEPTH) {
      return `The request body is nested deeper than ${MAX_BODY_DEPTH} levels (at ${path}).`;
    }
    if (Array.isArray(value)) {
      if (value.length > MAX_ARRAY_ITEMS) {
        return `${describePath(path)} has more than ${MAX_ARRAY_ITEMS} items.`;
      }
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], join(path, i), depth + 1]);
      continue;
    }
    const entries = Object.entries(value);
    if (entries.length > MAX_ARRAY_ITEMS) {
      return `${describePath(path)} has more than ${MAX_ARRAY_ITEMS} properties.`;
    }
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i];
      const problem = unsafeTextProblem(key);
      if (problem) return `Property names in ${describePath(path)} ${problem}.`;
      stack.push([child, join(path, key), depth + 1]);
    }
  }
  return undefined;
}
