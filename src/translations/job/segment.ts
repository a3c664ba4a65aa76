import stringify from 'json-stable-stringify';
import {
  newKey,
  type DocumentInline,
  type DocumentLeaf,
  type DocumentMark,
  type DocumentText,
} from '../../content-engine/documents/document';
import { sha256Hex } from '../../platform/ids/ids';

/**
 * A segment: a whole block of text (or a plain string) with its formatting as placeholders, in
 * the manner of XLIFF's inline codes: `<g>` pairs around formatted text (a mark, a link) and
 * `<x/>` atoms for what is kept as it is (inline code, a variable, a glossary term), each with
 * an id. Every provider receives the segment in a markup it keeps (DeepL's XML tag handling,
 * LibreTranslate's HTML format, tags in JSON strings for a chat model) and must return every
 * placeholder once, nested as it was; words may move around them. The answer is checked
 * (`parseTranslation`) and the block rebuilt from it (`restore`), with each tag's mark, inline
 * node or atom put back from the source, never from the answer.
 */

export type Token =
  | { t: 'text'; text: string }
  | { t: 'open'; id: number }
  | { t: 'close'; id: number }
  | { t: 'atom'; id: number };

/** What a placeholder stands for. */
export type Tag =
  | { kind: 'mark'; mark: DocumentMark }
  | { kind: 'inline'; node: DocumentInline }
  | { kind: 'leaf'; leaf: DocumentLeaf }
  | { kind: 'node'; node: DocumentInline }
  | { kind: 'term'; text: string };

export interface Segment {
  /** `block`: inline content of a block; `text`: a plain string (title, alt text, …). */
  kind: 'block' | 'text';
  tokens: Token[];
  tags: Map<number, Tag>;
  /** White space around the segment, kept aside and put back. */
  lead: string;
  trail: string;
  /** Keys of the block's text nodes, in order, given again to the text nodes rebuilt. */
  textKeys?: string[];
}

/** How placeholders are written for a provider. */
export type Markup = 'xml' | 'html' | 'tags';

/** One glossary pair for a translation: the term in the source and in the target language. */
export interface GlossaryTerm {
  source: string;
  target: string;
}

/** The segment's text without placeholders (what words and characters count). */
export function segmentText(segment: Segment): string {
  return segment.tokens.map((token) => (token.t === 'text' ? token.text : '')).join('');
}

/**
 * What the segment is made of, as a hash: its text, placeholders and what they stand for (keys
 * aside), so that the same source content gives the same hash in any document.
 */
export function segmentHash(segment: Segment, ...context: unknown[]): string {
  const tags = [...segment.tags.entries()].map(([id, tag]) => [id, tag]);
  return sha256Hex(
    stringify(
      {
        kind: segment.kind,
        tokens: segment.tokens,
        tags,
        lead: segment.lead,
        trail: segment.trail,
        context,
      },
      { replacer: (key, value) => (key === 'key' ? undefined : value) },
    ) as string,
  );
}

const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The segment in a provider's markup. */
export function render(segment: Segment, markup: Markup): string {
  return segment.tokens
    .map((token) => {
      switch (token.t) {
        case 'text':
          return markup === 'tags' ? token.text : escapeXml(token.text);
        case 'open':
          return markup === 'tags' ? `<g${token.id}>` : `<g id="${token.id}">`;
        case 'close':
          return markup === 'tags' ? `</g${token.id}>` : '</g>';
        case 'atom':
          if (markup === 'tags') return `<x${token.id}/>`;
          return markup === 'xml' ? `<x id="${token.id}"/>` : `<x id="${token.id}"></x>`;
      }
    })
    .join('');
}

/** A translation read back: text and placeholders as a tree. */
export type TranslatedNode =
  | { t: 'text'; text: string }
  | { t: 'group'; id: number; children: TranslatedNode[] }
  | { t: 'atom'; id: number };

/** Why a provider's answer for a segment cannot be used. */
export class PlaceholderError extends Error {}

// Our placeholders in any of the three markups: <g id="1">, <g1>, </g>, </g1>, <x id="2"/>,
// <x2/>, <x id="2"></x>. Anything else that looks like a tag is text.
const PLACEHOLDER = /<(\/?)([gx])(\d*)(?:\s+id\s*=\s*["']?(\d+)["']?)?\s*(\/?)>/gi;

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

/** XML's and HTML's common character references (what DeepL and LibreTranslate escape). */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X'
          ? parseInt(name.slice(2), 16)
          : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/**
 * Reads a provider's answer for `segment`: every placeholder of the source exactly once, pairs
 * as pairs and atoms as atoms, inside the same links as in the source (marks may move).
 * Throws a PlaceholderError saying what is wrong.
 */
export function parseTranslation(
  segment: Segment,
  answer: string,
  markup: Markup,
): TranslatedNode[] {
  const root: TranslatedNode[] = [];
  const stack: { id: number; children: TranslatedNode[] }[] = [];
  const seen = new Set<number>();
  const current = () => (stack.length > 0 ? stack[stack.length - 1].children : root);
  const pushText = (raw: string) => {
    if (raw === '') return;
    const text = markup === 'tags' ? raw : decodeEntities(raw);
    const siblings = current();
    const last = siblings[siblings.length - 1];
    if (last?.t === 'text') last.text += text;
    else siblings.push({ t: 'text', text });
  };
  const use = (id: number, kind: 'pair' | 'atom') => {
    const tag = segment.tags.get(id);
    if (!tag) throw new PlaceholderError(`unknown placeholder ${id}`);
    const pair = tag.kind === 'mark' || tag.kind === 'inline';
    if (pair !== (kind === 'pair')) throw new PlaceholderError(`placeholder ${id} changed form`);
    if (seen.has(id)) throw new PlaceholderError(`placeholder ${id} repeated`);
    seen.add(id);
  };
  let at = 0;
  for (const match of answer.matchAll(PLACEHOLDER)) {
    pushText(answer.slice(at, match.index));
    at = match.index + match[0].length;
    const [, closing, name, inlineId, attributeId, selfClosing] = match;
    const id = Number(inlineId || attributeId || NaN);
    if (name.toLowerCase() === 'x') {
      if (closing) continue; // `</x>` after an HTML atom
      if (!Number.isInteger(id)) throw new PlaceholderError('a placeholder without id');
      use(id, 'atom');
      current().push({ t: 'atom', id });
      continue;
    }
    if (closing) {
      const open = stack.pop();
      if (!open || (Number.isInteger(id) && id !== open.id)) {
        throw new PlaceholderError('placeholders badly nested');
      }
      continue;
    }
    if (selfClosing || !Number.isInteger(id)) throw new PlaceholderError('a broken placeholder');
    use(id, 'pair');
    const group: TranslatedNode = { t: 'group', id, children: [] };
    current().push(group);
    stack.push(group);
  }
  pushText(answer.slice(at));
  if (stack.length > 0) throw new PlaceholderError(`placeholder ${stack[0].id} not closed`);
  for (const id of segment.tags.keys()) {
    if (!seen.has(id)) throw new PlaceholderError(`placeholder ${id} missing`);
  }
  checkLinks(segment, root);
  return root;
}

/** Each placeholder sits inside the same links (inline tags) as in the source. */
function checkLinks(segment: Segment, tree: TranslatedNode[]): void {
  const isInline = (id: number) => segment.tags.get(id)?.kind === 'inline';
  const expected = new Map<number, string>();
  const stack: number[] = [];
  for (const token of segment.tokens) {
    if (token.t === 'text') continue;
    if (token.t === 'close') {
      if (isInline(token.id)) stack.pop();
      continue;
    }
    expected.set(token.id, stack.join(','));
    if (token.t === 'open' && isInline(token.id)) stack.push(token.id);
  }
  const walk = (nodes: TranslatedNode[], inlines: number[]) => {
    for (const node of nodes) {
      if (node.t === 'text') continue;
      if (expected.get(node.id) !== inlines.join(',')) {
        throw new PlaceholderError(`placeholder ${node.id} moved into or out of a link`);
      }
      if (node.t === 'group') {
        walk(node.children, isInline(node.id) ? [...inlines, node.id] : inlines);
      }
    }
  };
  walk(tree, []);
}

/** The block content (or the string) made from a checked translation. */
export function restore(
  segment: Segment,
  tree: TranslatedNode[],
): (DocumentText | DocumentInline)[] | string {
  if (segment.kind === 'text') {
    const plain = (nodes: TranslatedNode[]): string =>
      nodes
        .map((node) => {
          if (node.t === 'text') return node.text;
          if (node.t === 'group') return plain(node.children);
          const tag = segment.tags.get(node.id);
          return tag?.kind === 'term' ? tag.text : '';
        })
        .join('');
    return `${segment.lead}${plain(tree).trim()}${segment.trail}`;
  }
  const content: TranslatedNode[] = [...tree];
  if (segment.lead) content.unshift({ t: 'text', text: segment.lead });
  if (segment.trail) content.push({ t: 'text', text: segment.trail });
  const nodes = inlineNodes(segment, content, []);
  const keys = [...(segment.textKeys ?? [])];
  const assign = (list: (DocumentText | DocumentInline)[]) => {
    for (const node of list) {
      if (node.object === 'text') {
        if (keys.length > 0) node.key = keys.shift();
        else if (segment.textKeys?.length) node.key = newKey();
      } else if (node.nodes) assign(node.nodes);
    }
  };
  assign(nodes);
  return nodes;
}

/** The source as it was: its own placeholders as the answer. */
export function sourceTree(segment: Segment): TranslatedNode[] {
  return parseTranslation(segment, render(segment, 'tags'), 'tags');
}

function inlineNodes(
  segment: Segment,
  nodes: TranslatedNode[],
  marks: DocumentMark[],
): (DocumentText | DocumentInline)[] {
  const result: (DocumentText | DocumentInline)[] = [];
  const pushLeaf = (leaf: DocumentLeaf) => {
    if (leaf.text === '') return;
    const last = result[result.length - 1];
    if (last?.object !== 'text') {
      result.push({ object: 'text', leaves: [leaf] });
      return;
    }
    const previous = last.leaves[last.leaves.length - 1];
    if (previous && JSON.stringify(previous.marks) === JSON.stringify(leaf.marks)) {
      previous.text += leaf.text;
    } else {
      last.leaves.push(leaf);
    }
  };
  const pushNodes = (nodes: (DocumentText | DocumentInline)[]) => {
    for (const node of nodes) {
      if (node.object === 'text') node.leaves.forEach(pushLeaf);
      else result.push(node);
    }
  };
  for (const node of nodes) {
    if (node.t === 'text') {
      pushLeaf({ object: 'leaf', text: node.text, marks: marks.map((mark) => ({ ...mark })) });
      continue;
    }
    const tag = segment.tags.get(node.id)!;
    switch (tag.kind) {
      case 'mark':
        pushNodes(
          inlineNodes(segment, node.t === 'group' ? node.children : [], [...marks, tag.mark]),
        );
        break;
      case 'inline': {
        const children = inlineNodes(segment, node.t === 'group' ? node.children : [], marks);
        const copy = structuredClone(tag.node);
        copy.nodes = children.length > 0 ? children : [{ object: 'text', leaves: [] }];
        result.push(copy);
        break;
      }
      case 'leaf':
        pushLeaf(structuredClone(tag.leaf));
        break;
      case 'node':
        result.push(structuredClone(tag.node));
        break;
      case 'term':
        pushLeaf({ object: 'leaf', text: tag.text, marks: marks.map((mark) => ({ ...mark })) });
        break;
    }
  }
  return result;
}

const WORD = '[\\p{L}\\p{N}_]';

/** The glossary terms whose source occurs in `text` (whole words, any case). */
export function matchingTerms(text: string, terms: readonly GlossaryTerm[]): GlossaryTerm[] {
  return terms.filter((term) => termPattern([term]).test(text));
}

function termPattern(terms: readonly GlossaryTerm[]): RegExp {
  const alternatives = [...terms]
    .sort((a, b) => b.source.length - a.source.length)
    .map((term) => term.source.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(?<!${WORD})(?:${alternatives.join('|')})(?!${WORD})`, 'giu');
}

/**
 * The segment with every occurrence of a glossary term as an atom that restores as the term's
 * translation: how a provider without glossaries is made to use them (the term is kept out of
 * the machine translation and replaced after).
 */
export function protectTerms(segment: Segment, terms: readonly GlossaryTerm[]): Segment {
  if (terms.length === 0) return segment;
  const pattern = termPattern(terms);
  const bySource = new Map(terms.map((term) => [term.source.toLowerCase(), term.target]));
  const tags = new Map(segment.tags);
  const tokens: Token[] = [];
  for (const token of segment.tokens) {
    if (token.t !== 'text') {
      tokens.push(token);
      continue;
    }
    let at = 0;
    for (const match of token.text.matchAll(pattern)) {
      if (match.index > at) tokens.push({ t: 'text', text: token.text.slice(at, match.index) });
      const id = Math.max(0, ...tags.keys()) + 1;
      tags.set(id, { kind: 'term', text: bySource.get(match[0].toLowerCase()) ?? match[0] });
      tokens.push({ t: 'atom', id });
      at = match.index + match[0].length;
    }
    if (at < token.text.length) tokens.push({ t: 'text', text: token.text.slice(at) });
  }
  return { ...segment, kind: segment.kind, tokens, tags };
}
