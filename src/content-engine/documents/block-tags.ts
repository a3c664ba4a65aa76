import { HINT_STYLES } from './document';

/*
 * GitBook's block tags are not markdown, so they are found on the text before it is parsed: the
 * markdown is cut into plain segments and tag segments (whose content is cut the same way), and
 * each plain segment is parsed on its own. A tag is recognized on its own line, not indented,
 * outside fenced code, and only when it is closed; anything else stays text. A tag indented
 * inside a list item (as GitBook writes a hint in a numbered step) is found when the item's
 * content is read again on its own (from-mdast.ts); a tag inside a quote stays text.
 *
 * Tags: Liquid-style `{% name attr="value" %}…{% endname %}` (and the void `{% embed %}` and
 * `{% file %}`), plus the two HTML/TeX forms of the dialect, `<details>…</details>` (whose
 * `<summary>…</summary>` line becomes the `summary` attribute) and `$$…$$` math (whose raw
 * content is the segment's `body`). The OpenAPI tags (`{% openapi-operation %}`,
 * `{% openapi-schemas %}`, `{% openapi-webhook %}`) may be closed or not: GitBook writes them
 * closed around a link to the specification, people often write them alone.
 */
export type BlockSegment = MarkdownSegment | BlockTag;

/**
 * Where a segment is, in lines of the text it was cut from (`start` included, `end` not):
 * the blank lines between segments are empty paragraphs (from-block-tags.ts).
 */
interface Lines {
  start: number;
  end: number;
}

export interface MarkdownSegment extends Lines {
  kind: 'markdown';
  text: string;
}

export interface BlockTag extends Lines {
  kind: 'tag';
  name: string;
  attrs: Record<string, string>;
  children: BlockSegment[];
  /** The raw text between the opening and closing lines ('' for void tags). */
  body: string;
  /** How many lines `children` were cut from. */
  lineCount: number;
}

interface TagSpec {
  void?: boolean;
  /** Void unless closed before the next tag of the same name; the content is then its body. */
  optionallyClosed?: boolean;
  valid?: (attrs: Record<string, string>) => boolean;
}

const has =
  (...names: string[]) =>
  (attrs: Record<string, string>) =>
    names.every((name) => name in attrs);

/** The Liquid-style tags of the dialect; other `{% … %}` lines stay text. */
const TAGS: Record<string, TagSpec> = {
  hint: { valid: (attrs) => HINT_STYLES.some((style) => style === attrs.style) },
  prompt: { valid: has('description') },
  updates: {},
  update: { valid: has('date') },
  tabs: {},
  tab: {},
  stepper: {},
  step: {},
  columns: {},
  column: {},
  code: {},
  'content-ref': { valid: has('url') },
  // GitBook's earlier Git Sync wrote a content ref as `{% page-ref page="…" %}`, alone.
  'page-ref': { void: true, valid: has('page') },
  // An embed with a caption is closed around it, one without is alone.
  embed: { optionallyClosed: true, valid: has('url') },
  file: { optionallyClosed: true, valid: has('src') },
  drawing: { void: true },
  include: { void: true, valid: has('src') },
  // GitBook's OpenAPI block on a specification file or URL (the `swagger` block).
  openapi: { optionallyClosed: true, valid: has('src', 'path', 'method') },
  'openapi-operation': { optionallyClosed: true, valid: has('spec', 'path', 'method') },
  'openapi-schemas': { optionallyClosed: true, valid: has('spec', 'schemas') },
  'openapi-webhook': { optionallyClosed: true, valid: has('spec', 'name', 'method') },
};

/*
 * GitBook writes attribute values as they are, quotes included (`title="A "quoted" word"`): a
 * value ends at the quote that another attribute or the end of the tag follows.
 */
const VALUE = '(?:[^"]|"(?!\\s+[A-Za-z][\\w-]*="|\\s*%\\}))*';
const LIQUID_OPEN = new RegExp(
  `^\\{%\\s*([a-z][a-z-]*)((?:\\s+[A-Za-z][\\w-]*="${VALUE}")*)\\s*%\\}\\s*$`,
);
const LIQUID_CLOSE = /^\{%\s*end([a-z][a-z-]*)\s*%\}\s*$/;
const ATTRIBUTE = new RegExp(`([A-Za-z][\\w-]*)="(${VALUE})"`, 'g');
const DETAILS_OPEN = /^<details( open)?>\s*$/i;
const INCLUDE = /^\{%\s*include\s+"([^"]*)"\s*%\}\s*$/;
const IF_OPEN = /^\{%\s*if\s+(.*?)\s*%\}\s*$/;
const DETAILS_CLOSE = /^<\/details>\s*$/i;
const SUMMARY = /^ {0,3}<summary>(.*)<\/summary>\s*$/i;
const MATH_FENCE = /^\$\$\s*$/;
const MATH_LINE = /^\$\$((?:(?!\$\$).)*\S(?:(?!\$\$).)*)\$\$\s*$/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;

/** Tracks whether a line is inside fenced code, where tags are only text. */
class FenceTracker {
  private fence: string | undefined;

  /** Feeds a line; true when the line belongs to a fence (including its delimiters). */
  inFence(line: string): boolean {
    if (this.fence) {
      const closing = new RegExp(`^ {0,3}${this.fence[0]}{${this.fence.length},}\\s*$`);
      if (closing.test(line)) this.fence = undefined;
      return true;
    }
    const open = FENCE_OPEN.exec(line);
    if (open) this.fence = open[1];
    return Boolean(open);
  }
}

/**
 * Attribute values are written in double quotes, quotes in them as they are (as GitBook writes
 * them), but for a quote that would end the value early, `&quot;`, as `&` before `quot;`.
 */
export function formatTag(name: string, attrs: Record<string, string | undefined> = {}): string {
  const written = Object.entries(attrs)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([attr, value]) => {
      const safe = value
        .replace(/&quot;/g, '&amp;quot;')
        .replace(/"(?=\s+[A-Za-z][\w-]*="|\s*%\})/g, '&quot;');
      return ` ${attr}="${safe}"`;
    });
  return `{% ${name}${written.join('')} %}`;
}

function parseAttrs(text: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const [, name, value] of text.matchAll(ATTRIBUTE)) {
    attrs[name] = value.replace(/&quot;/g, '"').replace(/&amp;quot;/g, '&quot;');
  }
  return attrs;
}

interface Opening {
  name: string;
  attrs: Record<string, string>;
  void: boolean;
  optionallyClosed: boolean;
}

function opening(line: string): Opening | undefined {
  const details = DETAILS_OPEN.exec(line);
  if (details) {
    const attrs: Record<string, string> = details[1] ? { open: 'true' } : {};
    return { name: 'details', attrs, void: false, optionallyClosed: false };
  }
  // GitBook's reusable content, `{% include "path" %}`, has a bare value.
  const include = INCLUDE.exec(line);
  if (include) {
    return { name: 'include', attrs: { src: include[1] }, void: true, optionallyClosed: false };
  }
  // Adaptive content, `{% if visitor.claims.plan === "pro" %}`: the expression is bare.
  const condition = IF_OPEN.exec(line);
  if (condition && condition[1] !== '') {
    return {
      name: 'if',
      attrs: { expression: condition[1] },
      void: false,
      optionallyClosed: false,
    };
  }
  const match = LIQUID_OPEN.exec(line);
  const spec = match && TAGS[match[1]];
  if (!match || !spec) return undefined;
  const attrs = parseAttrs(match[2]);
  if (spec.valid && !spec.valid(attrs)) return undefined;
  return {
    name: match[1],
    attrs,
    void: spec.void === true,
    optionallyClosed: spec.optionallyClosed === true,
  };
}

function closes(line: string, name: string): boolean {
  if (name === 'details') return DETAILS_CLOSE.test(line);
  return LIQUID_CLOSE.exec(line)?.[1] === name;
}

/** The index of the line closing `name` opened before `from` (same-name tags nest), or -1. */
function findClose(lines: string[], from: number, name: string): number {
  const fences = new FenceTracker();
  let depth = 0;
  for (let i = from; i < lines.length; i++) {
    if (fences.inFence(lines[i])) continue;
    if (closes(lines[i], name)) {
      if (depth === 0) return i;
      depth--;
    } else if (opening(lines[i])?.name === name) depth++;
  }
  return -1;
}

/** The index of the line closing `name` before the next opening of `name`, or -1. */
function findOptionalClose(lines: string[], from: number, name: string): number {
  const fences = new FenceTracker();
  for (let i = from; i < lines.length; i++) {
    if (fences.inFence(lines[i])) continue;
    if (closes(lines[i], name)) return i;
    if (opening(lines[i])?.name === name) return -1;
  }
  return -1;
}

function findMathClose(lines: string[], from: number): number {
  return lines.findIndex((line, i) => i >= from && MATH_FENCE.test(line));
}

/** `<details>` content: the summary line (first non-blank line) becomes an attribute. */
function detailsTag(open: Record<string, string>, lines: string[], at: Lines): BlockTag {
  const first = lines.findIndex((line) => line.trim() !== '');
  const summary = first >= 0 ? SUMMARY.exec(lines[first]) : null;
  const body = summary ? lines.slice(first + 1) : lines;
  return tag('details', summary ? { ...open, summary: summary[1].trim() } : open, body, at);
}

function tag(name: string, attrs: Record<string, string>, lines: string[], at: Lines): BlockTag {
  return {
    kind: 'tag',
    name,
    attrs,
    children: splitBlockTags(lines.join('\n')),
    body: lines.join('\n'),
    lineCount: lines.length,
    ...at,
  };
}

function voidTag(name: string, attrs: Record<string, string>, body: string, at: number): BlockTag {
  return { kind: 'tag', name, attrs, children: [], body, lineCount: 0, start: at, end: at + 1 };
}

export function splitBlockTags(markdown: string): BlockSegment[] {
  const lines = markdown.split(/\r?\n/);
  const segments: BlockSegment[] = [];
  const fences = new FenceTracker();
  let plain: string[] = [];
  let plainStart = 0;
  const flush = (at: number) => {
    if (plain.some((line) => line.trim() !== '')) {
      segments.push({ kind: 'markdown', text: plain.join('\n'), start: plainStart, end: at });
    }
    plain = [];
  };
  const push = (segment: BlockTag) => {
    flush(segment.start);
    segments.push(segment);
    plainStart = segment.end;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (fences.inFence(line)) {
      plain.push(line);
      continue;
    }
    const mathLine = MATH_LINE.exec(line);
    if (mathLine) {
      push(voidTag('math', {}, mathLine[1], i));
      continue;
    }
    const mathClose = MATH_FENCE.test(line) ? findMathClose(lines, i + 1) : -1;
    if (mathClose >= 0) {
      const body = lines.slice(i + 1, mathClose).join('\n');
      push({ ...voidTag('math', {}, body, i), end: mathClose + 1 });
      i = mathClose;
      continue;
    }
    const open = opening(line);
    if (open?.void) {
      push(voidTag(open.name, open.attrs, '', i));
      continue;
    }
    if (open?.optionallyClosed) {
      const close = findOptionalClose(lines, i + 1, open.name);
      const inner = close < 0 ? [] : lines.slice(i + 1, close);
      push(tag(open.name, open.attrs, inner, { start: i, end: (close < 0 ? i : close) + 1 }));
      if (close >= 0) i = close;
      continue;
    }
    const close = open ? findClose(lines, i + 1, open.name) : -1;
    if (!open || close < 0) {
      plain.push(line);
      continue;
    }
    const inner = lines.slice(i + 1, close);
    const at = { start: i, end: close + 1 };
    push(
      open.name === 'details'
        ? detailsTag(open.attrs, inner, at)
        : tag(open.name, open.attrs, inner, at),
    );
    i = close;
  }
  flush(lines.length);
  return segments;
}
