import type { Element as HastElement, Root as HastRoot } from 'hast';
import type { FootnoteDefinition, Nodes, Root } from 'mdast';
import { LRUCache } from 'lru-cache';
import { ContentRef, DocumentBlock, JSONDocument, newKey } from './document';
import {
  blocksFromMdast,
  blocksOrEmptyParagraph,
  definitionsOf,
  FromMdastContext,
} from './from-mdast';
import { splitBlockTags } from './block-tags';
import { blocksFromSegments } from './from-block-tags';
import { protectInlineSyntax } from './inline-syntax';
import { loadMarkdownWriter } from './markdown-writer';
import {
  blockHash,
  MARKDOWN_SOURCE,
  MarkdownSource,
  markdownSourceOf,
  SourceBlock,
  WrittenBlock,
  writeWithSource,
} from './markdown-source';
import { defaultRefToUrl, rootFromBlocks } from './to-mdast';

/*
 * GitBook documents to and from markdown (CommonMark + GFM + GitBook's block tags) through
 * unified/remark. The mapping is in from-mdast.ts, from-block-tags.ts and to-mdast.ts; this file
 * loads remark and cuts the text at block tags (block-tags.ts).
 */

interface Remark {
  parse: (markdown: string) => Root;
  stringify: (root: Root) => string;
  parseHtml: (html: string) => HastRoot;
  toHtml: (node: HastElement | HastRoot) => string;
}

/*
 * unified and remark are published only as ES modules; this project compiles to CommonJS, where
 * SWC turns these `import()`s into `require()`s: Node loads ES modules through require()
 * (>= 20.19, see `engines`), and Jest transforms them to CommonJS (`transformIgnorePatterns`).
 * They load on first use, not at start (about 0.1 s).
 *
 * Reading is CommonMark with GFM's tables, strikethrough, task lists and footnotes, but not its
 * literal autolinks: GitBook reads `https://…` in text as text (and writes it so, unescaped).
 * Writing is GitBook's own writer: mdast-util-to-markdown 1.x (markdown-writer.ts), whose
 * escaping and list layout GitBook's Git Sync output follows byte for byte; its 2.x line
 * escapes differently (intraword `_`, `[`, …) and chooses other emphasis markers.
 */
async function loadRemark(): Promise<Remark> {
  const [
    { unified },
    parse,
    table,
    strikethrough,
    taskListItem,
    footnote,
    tableMdast,
    strikethroughMdast,
    taskListItemMdast,
    footnoteMdast,
    writer,
    { fromHtml },
    { toHtml },
  ] = await Promise.all([
    import('unified'),
    import('remark-parse'),
    import('micromark-extension-gfm-table'),
    import('micromark-extension-gfm-strikethrough'),
    import('micromark-extension-gfm-task-list-item'),
    import('micromark-extension-gfm-footnote'),
    import('mdast-util-gfm-table'),
    import('mdast-util-gfm-strikethrough'),
    import('mdast-util-gfm-task-list-item'),
    import('mdast-util-gfm-footnote'),
    loadMarkdownWriter(),
    import('hast-util-from-html'),
    import('hast-util-to-html'),
  ]);
  const parser = unified()
    .use(parse.default)
    .data('micromarkExtensions', [
      table.gfmTable(),
      strikethrough.gfmStrikethrough(),
      taskListItem.gfmTaskListItem(),
      footnote.gfmFootnote(),
    ])
    .data('fromMarkdownExtensions', [
      tableMdast.gfmTableFromMarkdown(),
      strikethroughMdast.gfmStrikethroughFromMarkdown(),
      taskListItemMdast.gfmTaskListItemFromMarkdown(),
      footnoteMdast.gfmFootnoteFromMarkdown(),
    ])
    .freeze();
  return {
    parse: (markdown) => parser.parse(markdown),
    stringify: writer,
    parseHtml: (html) => fromHtml(html, { fragment: true }),
    toHtml: (node) => toHtml(node),
  };
}

let remark: Promise<Remark> | undefined;

/** remark, loaded once. */
function getRemark(): Promise<Remark> {
  remark ??= loadRemark();
  return remark;
}

export interface MarkdownToDocumentOptions {
  /** Generates node keys (tests pass a deterministic one). */
  newKey?: () => string;
  /**
   * Keeps the markdown with the document when Bindery would write it otherwise
   * (markdown-source.ts): for pages read from a Git repository, whose files are written back.
   * Markdown given through the API (comments, pages, reviews) is content, not a file.
   */
  keepSource?: boolean;
}

export async function markdownToDocument(
  markdown: string,
  options: MarkdownToDocumentOptions = {},
): Promise<JSONDocument> {
  const remark = await getRemark();
  const { nodes } = readBlocks(markdown, remark, options.newKey ?? newKey);
  const source = options.keepSource ? keptSource(markdown, nodes, remark) : undefined;
  return { object: 'document', data: source ? { [MARKDOWN_SOURCE]: source } : {}, nodes };
}

/**
 * The top-level blocks of markdown, and the lines of each (its first and last line). A line
 * ending is a line ending (`\r\n` and `\r` as `\n`): text holds no carriage return a file gave it.
 */
function readBlocks(
  text: string,
  remark: Remark,
  keys: () => string,
): { nodes: DocumentBlock[]; lines: Map<DocumentBlock, [number, number]> } {
  const markdown = text.replace(/\r\n?/g, '\n');
  const { parse, parseHtml } = remark;
  const footnotes = footnoteSource(markdown, parse);
  // Where each top-level block is in the markdown (its first and last line).
  const lines = new Map<DocumentBlock, [number, number]>();
  const blocksOf = (text: string, nonEmpty = false, at?: number): DocumentBlock[] => {
    // Footnote references are only recognized next to their definitions, which GitBook writes
    // at the end of the page: every piece is parsed with the page's definitions after it.
    const { text: source, tokens } = protectInlineSyntax(
      footnotes && text.includes('[^') ? `${text.trimEnd()}\n\n${footnotes}` : text,
    );
    const root = parse(source);
    const ctx: FromMdastContext = {
      newKey: keys,
      ...definitionsOf(root),
      tokens,
      source,
      parseHtml,
      ...(at !== undefined ? { lines: { of: lines, offset: at } } : {}),
      blocksOf: (markdown) => blocksOf(markdown),
      flow: blocksOrEmptyParagraph,
      documentBlocksOf: (markdown) =>
        blocksFromSegments(splitBlockTags(markdown), { newKey: keys, blocksOf }, true, {
          count: lineCount(markdown),
          edges: 'text',
        }),
    };
    return (nonEmpty ? blocksOrEmptyParagraph : blocksFromMdast)(root.children, ctx);
  };
  const nodes = blocksFromSegments(
    splitBlockTags(markdown),
    { newKey: keys, blocksOf, lines },
    false,
    { count: lineCount(markdown), edges: 'text' },
  );
  return { nodes, lines };
}

function lineCount(text: string): number {
  return text.split(/\r?\n/).length;
}

/** The source of the footnote definitions of a page, one after another, or ''. */
function footnoteSource(markdown: string, parse: Remark['parse']): string {
  if (!markdown.includes('[^')) return '';
  const definitions: string[] = [];
  const visit = (node: Nodes) => {
    if (node.type === 'footnoteDefinition') {
      const { start, end } = node.position ?? {};
      if (start?.offset !== undefined && end?.offset !== undefined) {
        definitions.push(markdown.slice(start.offset, end.offset));
      }
    } else if ('children' in node) node.children.forEach(visit);
  };
  visit(parse(markdown));
  return definitions.join('\n\n');
}

export interface DocumentToMarkdownOptions {
  /**
   * The link or image target of a content ref. By default URLs are kept, anchors become
   * `#anchor` and other refs (pages, files, …) an empty target; callers that know the space's
   * pages and files pass their own.
   */
  refToUrl?: (ref: ContentRef) => string | undefined;
  /**
   * Whether the markdown a page was read from (Git) is written back where it still stands for
   * the document, byte for byte (the default); false writes the document afresh, a third of the
   * work, for readers that need its words rather than its bytes (an answer's prompt).
   */
  keepSource?: boolean;
}

export async function documentToMarkdown(
  document: JSONDocument,
  options: DocumentToMarkdownOptions = {},
): Promise<string> {
  const remark = await getRemark();
  const refToUrl = options.refToUrl ?? defaultRefToUrl;
  const source = options.keepSource === false ? undefined : markdownSourceOf(document);
  if (source) {
    const kept = writeKeepingSource(document.nodes ?? [], source, remark, refToUrl);
    if (kept !== undefined) return kept;
  }
  return writeDocument(document.nodes ?? [], remark, refToUrl);
}

/** Bindery's markdown for blocks (footnotes of their annotations after them). */
function writeDocument(
  blocks: DocumentBlock[],
  { stringify, toHtml }: Remark,
  refToUrl: (ref: ContentRef) => string | undefined,
): string {
  const footnotes: FootnoteDefinition[] = [];
  const root = rootFromBlocks(blocks, { stringify, toHtml, refToUrl, footnotes });
  root.children.push(...footnotes);
  return stringify(root);
}

/** What Bindery writes for each block alone; undefined when they hold footnotes. */
function writeBlocks(
  blocks: DocumentBlock[],
  remark: Remark,
  refToUrl: (ref: ContentRef) => string | undefined,
): WrittenBlock[] | undefined {
  const written: WrittenBlock[] = [];
  for (const block of blocks) {
    const markdown = writeDocument([block], remark, refToUrl);
    // Footnotes are numbered across the page: such a page is written whole.
    if (/^\[\^[^\]]+\]:/m.test(markdown) && markdown.includes('[^')) return undefined;
    written.push({ block, markdown: markdown.replace(/\n$/, '') });
  }
  return written;
}

/**
 * The blocks written with the markdown kept with them: the markdown is read again, and each of
 * its blocks stands for itself only where it is written as the block to write is (written
 * through `refToUrl`, the same paths): nothing else of the document vouches for it.
 */
function writeKeepingSource(
  blocks: DocumentBlock[],
  source: MarkdownSource,
  remark: Remark,
  refToUrl: (ref: ContentRef) => string | undefined,
): string | undefined {
  const written = writeBlocks(blocks, remark, refToUrl);
  if (!written || written.length === 0) return undefined;
  const sourceBlocks = blocksOfSource(source.markdown, remark);
  if (!sourceBlocks) return undefined;
  return writeWithSource(written, source.markdown, sourceBlocks, (left, right) =>
    // The writer separates two lists of the same kind by an empty comment.
    left.type === right.type && left.type.startsWith('list-') ? '\n\n<!---->\n\n' : '\n\n',
  );
}

/**
 * The blocks of kept markdown, by the markdown: a page written again (its `.md`, llms-full.txt,
 * each export) does not read its text again; at most 16 M characters of markdown are kept.
 */
const sourceBlocksCache = new LRUCache<string, { blocks: SourceBlock[] | null }>({
  maxSize: 16_000_000,
  sizeCalculation: (_value, markdown) => markdown.length + 1,
});

/** The blocks of kept markdown: what Bindery writes for each, and its lines; null if unwritable. */
function blocksOfSource(markdown: string, remark: Remark): SourceBlock[] | null {
  const cached = sourceBlocksCache.get(markdown);
  if (cached) return cached.blocks;
  const read = readBlocks(markdown, remark, newKey);
  const kept = writeBlocks(read.nodes, remark, defaultRefToUrl);
  const blocks = kept
    ? read.nodes.map((block, i) => ({
        hash: blockHash(kept[i].markdown),
        lines: read.lines.get(block) ?? null,
      }))
    : null;
  sourceBlocksCache.set(markdown, { blocks });
  return blocks;
}

/**
 * The markdown kept with a document read from it (markdown-source.ts), when Bindery would write
 * it otherwise: blank lines before its first block are the caller's (after a page's title), not
 * the page's.
 */
function keptSource(
  markdown: string,
  blocks: DocumentBlock[],
  remark: Remark,
): MarkdownSource | undefined {
  const text = markdown.replace(/^(?:[ \t]*\r?\n)*/, '');
  if (blocks.length === 0 || writeDocument(blocks, remark, defaultRefToUrl) === text) {
    return undefined;
  }
  return { markdown: text };
}
