import { createHash } from 'node:crypto';
import type { DocumentBlock, JSONDocument } from './document';

/*
 * A page read from markdown keeps the text it was read from, so that writing it back gives that
 * text again where the page did not change, and changes only the lines of an edit, as GitBook's
 * Git Sync does: GitBook writes a page again block by block, keeping the bytes of the blocks an
 * edit left alone, so that a repository holds blocks written by several versions of its writer
 * (`\_` in URLs, `<br>` ending a paragraph, unaligned tables) and by hand, which no single writer
 * gives back.
 *
 * The text is kept with the document, in `document.data.markdownSource` (GitBook's document data
 * takes any property), only when Bindery would write it otherwise: the text, and for each
 * top-level block the hash of what Bindery writes for it and where it is in the text. Writing
 * aligns the blocks to write with those hashes: a run of consecutive blocks written as they were
 * read (same markdown, links to the same paths) is the text they came from; any other block is
 * written in Bindery's form. Nothing can drift: a block edited, moved or whose link targets
 * moved hashes otherwise, and is written anew.
 */

export interface MarkdownSource {
  /** The markdown read. */
  markdown: string;
  /** Per top-level block: the hash of the markdown Bindery writes for it. */
  blocks: string[];
  /** Per top-level block: its first and last line in `markdown`, null for none (an empty paragraph). */
  lines: ([number, number] | null)[];
}

export const MARKDOWN_SOURCE = 'markdownSource';

export function blockHash(markdown: string): string {
  return createHash('sha256').update(markdown).digest('base64url').slice(0, 16);
}

/** The kept source of a document, when it is one and fits its blocks' count. */
export function markdownSourceOf(document: JSONDocument): MarkdownSource | undefined {
  const value = document.data?.[MARKDOWN_SOURCE] as Partial<MarkdownSource> | undefined;
  if (
    !value ||
    typeof value.markdown !== 'string' ||
    !Array.isArray(value.blocks) ||
    !Array.isArray(value.lines) ||
    value.blocks.length !== value.lines.length
  ) {
    return undefined;
  }
  return value as MarkdownSource;
}

/** The document without its kept source. */
export function withoutMarkdownSource(document: JSONDocument): JSONDocument {
  if (!(MARKDOWN_SOURCE in (document.data ?? {}))) return document;
  const { [MARKDOWN_SOURCE]: _source, ...data } = document.data;
  return { ...document, data };
}

/** Pairs of equal items of `a` and `b` in order (a longest common subsequence). */
function alignment(a: readonly string[], b: readonly string[]): [number, number][] {
  // The common head and tail first; the middle by dynamic programming when small enough.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail++;
  }
  const pairs: [number, number][] = [];
  for (let i = 0; i < head; i++) pairs.push([i, i]);
  const [ma, mb] = [a.slice(head, a.length - tail), b.slice(head, b.length - tail)];
  if (ma.length > 0 && mb.length > 0 && ma.length * mb.length <= 1_000_000) {
    const lengths = Array.from({ length: ma.length + 1 }, () =>
      new Array<number>(mb.length + 1).fill(0),
    );
    for (let i = ma.length - 1; i >= 0; i--) {
      for (let j = mb.length - 1; j >= 0; j--) {
        lengths[i][j] =
          ma[i] === mb[j]
            ? lengths[i + 1][j + 1] + 1
            : Math.max(lengths[i + 1][j], lengths[i][j + 1]);
      }
    }
    let [i, j] = [0, 0];
    while (i < ma.length && j < mb.length) {
      if (ma[i] === mb[j]) {
        pairs.push([head + i, head + j]);
        i++;
        j++;
      } else if (lengths[i + 1][j] >= lengths[i][j + 1]) i++;
      else j++;
    }
  }
  for (let k = tail; k > 0; k--) pairs.push([a.length - k, b.length - k]);
  return pairs;
}

/** The index of the first block with lines. */
function firstLines(source: MarkdownSource): number {
  return source.lines.findIndex((lines) => lines !== null);
}

/** The index of the last block with lines. */
function lastLines(source: MarkdownSource): number {
  for (let k = source.lines.length - 1; k >= 0; k--) if (source.lines[k] !== null) return k;
  return -1;
}

export interface WrittenBlock {
  block: DocumentBlock;
  /** What Bindery writes for the block alone. */
  markdown: string;
}

/**
 * The markdown of `blocks` with the kept source: runs of blocks written as they were read are
 * their source text, the others `written`; pieces are joined by `join` (the blank lines
 * between two blocks). Undefined when nothing of the source is kept.
 */
export function writeWithSource(
  written: readonly WrittenBlock[],
  source: MarkdownSource,
  join: (left: DocumentBlock, right: DocumentBlock) => string,
): string | undefined {
  const hashes = written.map((item) => blockHash(item.markdown));
  const pairs = alignment(hashes, source.blocks);
  if (pairs.length === 0) return undefined;
  // The whole source, when every block is as it was read.
  if (pairs.length === written.length && pairs.length === source.blocks.length) {
    return source.markdown;
  }
  const sourceOf = new Map(pairs);
  const lines = source.markdown.split('\n');
  const pieces: { text: string; first: DocumentBlock; last: DocumentBlock }[] = [];
  let i = 0;
  while (i < written.length) {
    const j = sourceOf.get(i);
    if (j === undefined || source.lines[j] === null) {
      pieces.push({ text: written[i].markdown, first: written[i].block, last: written[i].block });
      i++;
      continue;
    }
    // The longest run of blocks kept in the same order, ending on a block with lines.
    let end = i;
    while (sourceOf.get(end + 1) === j + (end + 1 - i)) end++;
    while (source.lines[j + (end - i)] === null) end--;
    let [start] = source.lines[j]!;
    let [, stop] = source.lines[j + (end - i)]!;
    // What comes before the first block and after the last (footnote definitions, blank lines)
    // stays with the blocks next to it.
    if (i === 0 && j === firstLines(source)) start = 0;
    if (end === written.length - 1 && j + (end - i) === lastLines(source)) stop = lines.length - 1;
    pieces.push({
      text: lines.slice(start, stop + 1).join('\n'),
      first: written[i].block,
      last: written[end].block,
    });
    i = end + 1;
  }
  let markdown = pieces[0].text;
  for (let k = 1; k < pieces.length; k++) {
    markdown += join(pieces[k - 1].last, pieces[k].first) + pieces[k].text;
  }
  return markdown.endsWith('\n') || markdown === '' ? markdown : `${markdown}\n`;
}
