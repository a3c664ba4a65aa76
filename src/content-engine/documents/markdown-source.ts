import { createHash } from 'node:crypto';
import type { DocumentBlock, JSONDocument } from './document';
import { unchangedPairs } from './keep-block-keys';

/*
 * A page read from markdown keeps the text it was read from, so that writing it back gives that
 * text again where the page did not change, and changes only the lines of an edit, as GitBook's
 * Git Sync does: GitBook writes a page again block by block, keeping the bytes of the blocks an
 * edit left alone, so that a repository holds blocks written by several versions of its writer
 * (`\_` in URLs, `<br>` ending a paragraph, unaligned tables) and by hand, which no single writer
 * gives back.
 *
 * The text is kept with the document, in `document.data.markdownSource` (GitBook's document data
 * takes any property), only when Bindery would write it otherwise, and nothing else: writing
 * reads it again, and aligns its blocks with the blocks to write by what Bindery writes for each
 * (same markdown, links to the same paths): a run of consecutive blocks written as they were
 * read is the text they came from; any other block is written in Bindery's form. Nothing can
 * drift, and the text cannot say what the document does not: a block edited, moved or whose
 * link targets moved, or one the text does not hold, is written anew.
 */

export interface MarkdownSource {
  /** The markdown read (from its first block on). */
  markdown: string;
}

/** A top-level block of the kept markdown. */
export interface SourceBlock {
  /** The hash of the markdown Bindery writes for it. */
  hash: string;
  /** Its first and last line in the markdown, null for none (an empty paragraph). */
  lines: [number, number] | null;
}

export const MARKDOWN_SOURCE = 'markdownSource';

export function blockHash(markdown: string): string {
  return createHash('sha256').update(markdown).digest('base64url').slice(0, 16);
}

/** The kept source of a document, when it has one. */
export function markdownSourceOf(document: JSONDocument): MarkdownSource | undefined {
  const value = document.data?.[MARKDOWN_SOURCE] as Partial<MarkdownSource> | undefined;
  return value && typeof value.markdown === 'string' ? { markdown: value.markdown } : undefined;
}

/** The document without its kept source. */
export function withoutMarkdownSource(document: JSONDocument): JSONDocument {
  if (!(MARKDOWN_SOURCE in (document.data ?? {}))) return document;
  const { [MARKDOWN_SOURCE]: _source, ...data } = document.data;
  return { ...document, data };
}

/** The index of the first block with lines. */
function firstLines(source: readonly SourceBlock[]): number {
  return source.findIndex((block) => block.lines !== null);
}

/** The index of the last block with lines. */
function lastLines(source: readonly SourceBlock[]): number {
  for (let k = source.length - 1; k >= 0; k--) if (source[k].lines !== null) return k;
  return -1;
}

export interface WrittenBlock {
  block: DocumentBlock;
  /** What Bindery writes for the block alone. */
  markdown: string;
}

/**
 * The markdown of the `written` blocks with the kept `markdown` (whose blocks are `source`):
 * runs of blocks written as they were read are their lines of the markdown, the others as
 * written; pieces are joined by `join` (the blank lines between two blocks). Undefined when
 * nothing of the markdown is kept.
 */
export function writeWithSource(
  written: readonly WrittenBlock[],
  markdown: string,
  source: readonly SourceBlock[],
  join: (left: DocumentBlock, right: DocumentBlock) => string,
): string | undefined {
  const hashes = written.map((item) => blockHash(item.markdown));
  const pairs = unchangedPairs(
    hashes,
    source.map((block) => block.hash),
  );
  if (pairs.length === 0) return undefined;
  // The whole source, when every block is as it was read.
  if (pairs.length === written.length && pairs.length === source.length) return markdown;
  const sourceOf = new Map(pairs);
  // Lines and what ends each, as the text has them (`\r\n` and `\r` too, as markdown reads them).
  const parts = markdown.split(/(\r\n?|\n)/);
  const lineCount = (parts.length + 1) / 2;
  const pieces: { text: string; first: DocumentBlock; last: DocumentBlock }[] = [];
  let i = 0;
  while (i < written.length) {
    const j = sourceOf.get(i);
    if (j === undefined || source[j].lines === null) {
      pieces.push({ text: written[i].markdown, first: written[i].block, last: written[i].block });
      i++;
      continue;
    }
    // The longest run of blocks kept in the same order, ending on a block with lines.
    let end = i;
    while (sourceOf.get(end + 1) === j + (end + 1 - i)) end++;
    while (source[j + (end - i)].lines === null) end--;
    let [start] = source[j].lines!;
    let [, stop] = source[j + (end - i)].lines!;
    // What comes before the first block and after the last (footnote definitions, blank lines)
    // stays with the blocks next to it.
    if (i === 0 && j === firstLines(source)) start = 0;
    if (end === written.length - 1 && j + (end - i) === lastLines(source)) stop = lineCount - 1;
    pieces.push({
      text: parts.slice(2 * start, 2 * stop + 1).join(''),
      first: written[i].block,
      last: written[end].block,
    });
    i = end + 1;
  }
  let text = pieces[0].text;
  for (let k = 1; k < pieces.length; k++) {
    text += join(pieces[k - 1].last, pieces[k].first) + pieces[k].text;
  }
  return text.endsWith('\n') || text === '' ? text : `${text}\n`;
}
