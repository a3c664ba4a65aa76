import type { Root } from 'mdast';
import { ContentRef, DocumentBlock, JSONDocument, newKey } from './document';
import {
  blocksFromMdast,
  blocksOrEmptyParagraph,
  definitionsOf,
  FromMdastContext,
} from './from-mdast';
import { splitHintTags } from './hint-tags';
import { defaultRefToUrl, rootFromBlocks } from './to-mdast';

/*
 * GitBook documents to and from markdown (CommonMark + GFM + GitBook's hint tags) through
 * unified/remark. The mapping is in from-mdast.ts and to-mdast.ts; this file loads remark and
 * cuts the text at hint tags.
 */

interface Remark {
  parse: (markdown: string) => Root;
  stringify: (root: Root) => string;
}

/**
 * unified and remark are published only as ES modules and this project compiles to CommonJS,
 * where SWC would turn `import()` into `require()`. Building the import from a string keeps it
 * a real dynamic import, in Node and in Jest (run with --experimental-vm-modules) alike.
 */
const importModule = new Function('specifier', 'return import(specifier)') as <T>(
  specifier: string,
) => Promise<T>;

let remark: Promise<Remark> | undefined;

async function loadRemark(): Promise<Remark> {
  // One after another: Jest's ESM loader fails on concurrent imports sharing dependencies.
  const { unified } = await importModule<typeof import('unified')>('unified');
  const parse = await importModule<typeof import('remark-parse')>('remark-parse');
  const gfm = await importModule<typeof import('remark-gfm')>('remark-gfm');
  const stringify = await importModule<typeof import('remark-stringify')>('remark-stringify');
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

/** remark, loaded once; a failed load is retried on the next call. */
function getRemark(): Promise<Remark> {
  remark ??= loadRemark().catch((error: unknown) => {
    remark = undefined;
    throw error;
  });
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
  const nodes = splitHintTags(markdown).flatMap((segment): DocumentBlock[] => {
    if (segment.kind === 'markdown') return blocksOf(segment.text);
    return [
      {
        object: 'block',
        key: keys(),
        type: 'hint',
        data: { style: segment.style },
        nodes: blocksOf(segment.text, true),
      },
    ];
  });
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
