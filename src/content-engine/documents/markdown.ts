import type { Root } from 'mdast';
import { ContentRef, DocumentBlock, JSONDocument, newKey } from './document';
import {
  blocksFromMdast,
  blocksOrEmptyParagraph,
  definitionsOf,
  FromMdastContext,
} from './from-mdast';
import { splitBlockTags } from './block-tags';
import { blocksFromSegments } from './from-block-tags';
import { defaultRefToUrl, rootFromBlocks } from './to-mdast';

/*
 * GitBook documents to and from markdown (CommonMark + GFM + GitBook's block tags) through
 * unified/remark. The mapping is in from-mdast.ts, from-block-tags.ts and to-mdast.ts; this file
 * loads remark and cuts the text at block tags (block-tags.ts).
 */

interface Remark {
  parse: (markdown: string) => Root;
  stringify: (root: Root) => string;
}

/*
 * unified and remark are published only as ES modules; this project compiles to CommonJS, where
 * SWC turns these `import()`s into `require()`s: Node loads ES modules through require()
 * (>= 20.19, see `engines`), and Jest transforms them to CommonJS (`transformIgnorePatterns`).
 * They load on first use, not at start (about 0.1 s).
 */
async function loadRemark(): Promise<Remark> {
  const [{ unified }, parse, gfm, stringify] = await Promise.all([
    import('unified'),
    import('remark-parse'),
    import('remark-gfm'),
    import('remark-stringify'),
  ]);
  const parser = unified().use(parse.default).use(gfm.default).freeze();
  const stringifier = unified()
    .use(stringify.default, { bullet: '-', rule: '-', emphasis: '*', strong: '*', fences: true })
    .use(gfm.default)
    .freeze();
  return {
    parse: (markdown) => parser.parse(markdown),
    stringify: (root) => stringifier.stringify(root),
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
}

export async function markdownToDocument(
  markdown: string,
  options: MarkdownToDocumentOptions = {},
): Promise<JSONDocument> {
  const { parse } = await getRemark();
  const keys = options.newKey ?? newKey;
  const blocksOf = (text: string, nonEmpty = false): DocumentBlock[] => {
    const root = parse(text);
    const ctx: FromMdastContext = { newKey: keys, definitions: definitionsOf(root) };
    return (nonEmpty ? blocksOrEmptyParagraph : blocksFromMdast)(root.children, ctx);
  };
  const nodes = blocksFromSegments(splitBlockTags(markdown), { newKey: keys, blocksOf });
  return { object: 'document', data: {}, nodes };
}

export interface DocumentToMarkdownOptions {
  /**
   * The link or image target of a content ref. By default URLs are kept, anchors become
   * `#anchor` and other refs (pages, files, …) an empty target; callers that know the space's
   * pages and files pass their own.
   */
  refToUrl?: (ref: ContentRef) => string | undefined;
}

export async function documentToMarkdown(
  document: JSONDocument,
  options: DocumentToMarkdownOptions = {},
): Promise<string> {
  const { stringify } = await getRemark();
  const refToUrl = options.refToUrl ?? defaultRefToUrl;
  return stringify(rootFromBlocks(document.nodes ?? [], { stringify, refToUrl }));
}
