import { CORE_SCHEMA, dump, load } from 'js-yaml';
import { isDeepStrictEqual } from 'node:util';
import { frontmatterBlock } from '../../content-engine/documents/frontmatter';
import { GITBOOK_KEY_ORDER } from './frontmatter-meta';

/*
 * The head of a page's file: its frontmatter block and its `# Title` heading, up to the body.
 *
 * GitBook writes frontmatter as js-yaml's `dump` does by default (strings over 80 columns
 * folded, `description: >-` on wrapped lines), keys in its order (GITBOOK_KEY_ORDER), then a
 * blank line, `# Title`, a blank line and the body. A head written otherwise (by hand, by an
 * older GitBook: keys in another order, other wrapping, keys Bindery does not read, no heading,
 * other blank lines) is kept with the page as it was read (`PageGitForm.head`), and written
 * back as it was while what it says is still what the page has: a key whose value changed in
 * Bindery is written anew in GitBook's form, in its place; a key the page no longer has goes;
 * a new key goes where GitBook's order puts it; the other lines stay as they were.
 */

/** A head as read: its parts, in the order of the file. */
export interface HeadParts {
  /** The frontmatter block with its fences and line ends; null when the file has none. */
  block: string | null;
  /** The YAML between the fences (no final line end); null when there is no block. */
  yaml: string | null;
  /** The blank lines after the block. */
  gap: string;
  /** The heading's line (line end included), null when the file does not open with one. */
  heading: string | null;
  /** The title the heading says. */
  headingTitle?: string;
  /** The blank lines after the heading (or the block, without heading). */
  after: string;
}

const HEADING = /^#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*(?:\r?\n|$)/;
const BLANK_LINES = /^(?:[ \t]*\r?\n)*/;

/** Splits a page's file into its head's parts and its body (undefined: none). */
export function splitHead(text: string): { parts: HeadParts; body: string | undefined } {
  const found = frontmatterBlock(text);
  let rest = found ? text.slice(found.text.length) : text;
  const gap = BLANK_LINES.exec(rest)![0];
  rest = rest.slice(gap.length);
  const heading = HEADING.exec(rest);
  if (heading) rest = rest.slice(heading[0].length);
  const after = heading ? BLANK_LINES.exec(rest)![0] : '';
  rest = rest.slice(after.length);
  const parts: HeadParts = {
    block: found?.text ?? null,
    yaml: found?.yaml ?? null,
    gap: heading ? gap : '',
    heading: heading?.[0] ?? null,
    ...(heading ? { headingTitle: heading[1].trim() } : {}),
    after: heading ? after : gap,
  };
  const body = rest.trim() === '' ? undefined : rest;
  // Without a body, what follows the head (trailing blank lines) belongs to it.
  if (body === undefined) parts.after += rest;
  return { parts, body };
}

/** The head as a text: what was read before the body. */
export function headText(parts: HeadParts): string {
  return `${parts.block ?? ''}${parts.gap}${parts.heading ?? ''}${parts.after}`;
}

/** GitBook's head for frontmatter `values` (keys in order; none: no block) and `title`. */
export function canonicalHead(
  values: Record<string, unknown>,
  title: string,
  hasBody: boolean,
): string {
  const yaml = Object.keys(values).length > 0 ? yamlOf(values) : null;
  return `${yaml !== null ? `---\n${yaml}---\n\n` : ''}${headingLine(title)}${hasBody ? '\n' : ''}`;
}

/**
 * The head of a page whose file's head was `source`: `values` are the frontmatter values the
 * page has now, `base` those `source` says (what Bindery would write for them), so that what
 * changed since is known; `title` the page's title now.
 */
export function renderHead(input: {
  values: Record<string, unknown>;
  base: Record<string, unknown>;
  title: string;
  hasBody: boolean;
  source: HeadParts;
}): string {
  const { values, base, title, hasBody, source } = input;
  const yaml = mergeYaml(values, base, source.yaml);
  let out: string;
  if (yaml === source.yaml) {
    out = `${source.block ?? ''}${source.gap}`;
  } else if (yaml === null) {
    out = '';
  } else {
    out = `---\n${yaml}${yaml === '' || yaml.endsWith('\n') ? '' : '\n'}---\n${source.block === null ? '\n' : source.gap}`;
  }
  if (source.heading !== null) {
    out += source.headingTitle === title ? source.heading : headingLine(title);
    if (hasBody && !out.endsWith('\n')) out += '\n';
  }
  // A file without heading keeps its title in SUMMARY.md.
  out += source.after;
  return out;
}

function headingLine(title: string): string {
  return `# ${title.replace(/\n/g, ' ')}\n`;
}

/** GitBook's YAML for frontmatter values: js-yaml's defaults. */
export function yamlOf(values: Record<string, unknown>): string {
  return dump(plain(values));
}

/**
 * A copy made of this realm's objects and lists: js-yaml dumps only plain objects, and values
 * read elsewhere (a database driver, another VM context) may have another `Object.prototype`.
 */
export function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = plain(item);
  return copy;
}

interface Chunk {
  /** The top-level key the lines set; undefined for comments and blank lines before any key. */
  key?: string;
  text: string;
}

/**
 * The YAML of `source` (null: no block) with what changed from `base` to `values` written in:
 * null when there is nothing to write where there was no block.
 */
function mergeYaml(
  values: Record<string, unknown>,
  base: Record<string, unknown>,
  source: string | null,
): string | null {
  const changed = (key: string) => !isDeepStrictEqual(values[key], base[key]);
  const keys = new Set([...Object.keys(values), ...Object.keys(base)]);
  if (![...keys].some(changed)) return source;
  if (source === null) {
    const added = Object.fromEntries(Object.entries(values).filter(([key]) => changed(key)));
    return Object.keys(added).length > 0 ? yamlOf(added) : null;
  }
  const chunks = chunksOf(source);
  if (!chunks) return yamlOf(values);
  const out: Chunk[] = [];
  for (const chunk of chunks) {
    if (chunk.key === undefined || !changed(chunk.key)) out.push(chunk);
    else if (values[chunk.key] !== undefined) {
      out.push({ key: chunk.key, text: yamlOf({ [chunk.key]: values[chunk.key] }) });
    }
  }
  const present = new Set(chunks.map((chunk) => chunk.key));
  for (const [key, value] of Object.entries(values)) {
    if (present.has(key) || !changed(key)) continue;
    const rank = keyRank(key);
    const before = out.findIndex((chunk) => chunk.key !== undefined && keyRank(chunk.key) > rank);
    const at = before < 0 ? out.length : before;
    out.splice(at, 0, { key, text: yamlOf({ [key]: value }) });
  }
  if (!out.some((chunk) => chunk.key !== undefined)) return null;
  return out.map((chunk) => (chunk.text.endsWith('\n') ? chunk.text : `${chunk.text}\n`)).join('');
}

/** Where a key goes in GitBook's order; keys GitBook does not write have none. */
function keyRank(key: string): number {
  const at = (GITBOOK_KEY_ORDER as readonly string[]).indexOf(key);
  if (at >= 0) return at;
  return key === 'slug' ? GITBOOK_KEY_ORDER.length : -1;
}

/**
 * The top-level entries of a YAML mapping as the lines that write them (comments and blank
 * lines stay with the entry above); undefined when the text is not one entry per top-level
 * key, each readable alone.
 */
function chunksOf(yaml: string): Chunk[] | undefined {
  const chunks: Chunk[] = [];
  for (const line of yaml.split(/(?<=\n)/)) {
    const startsEntry = /^[^\s#-]/.test(line) || /^-[^\s-]/.test(line);
    if (startsEntry) chunks.push({ text: line });
    else if (chunks.length > 0) chunks[chunks.length - 1].text += line;
    else chunks.push({ text: line });
  }
  const seen = new Set<string>();
  for (const chunk of chunks) {
    if (!/^[^\s#-]|^-[^\s-]/.test(chunk.text)) continue;
    let parsed: unknown;
    try {
      parsed = load(chunk.text, { schema: CORE_SCHEMA, maxDepth: 20 });
    } catch {
      return undefined;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    const keys = Object.keys(parsed);
    if (keys.length !== 1 || seen.has(keys[0])) return undefined;
    chunk.key = keys[0];
    seen.add(keys[0]);
  }
  return chunks;
}
