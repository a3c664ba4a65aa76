import type {
  DocumentBlock,
  DocumentFragment,
  DocumentInline,
  DocumentNode,
  JSONDocument,
} from '../documents/document';
import { slugify, uniqueSlug } from '../tree/slug';

/** A part of a page for search: the lead (before the first heading, id '') or one heading's. */
export interface DocumentSection {
  /** The heading's anchor; '' for the lead. */
  id: string;
  /** The heading's text; '' for the lead (whose title is the page's). */
  title: string;
  /** Plain text of the section's blocks, one line per block. */
  body: string;
}

const HEADINGS = new Set(['heading-1', 'heading-2', 'heading-3']);

/** Longest section id kept (the index stores up to 256 characters; room for a `-n` suffix). */
const MAX_SECTION_ID = 240;

/**
 * Splits a document at its top-level headings into sections of plain text. The lead section
 * (id '') is always first, even when empty, so that every page has a section for its title.
 * A heading's id is its anchor (`data.id`, else `meta.id`), else a slug of its text, else its
 * key; ids are unique within the page (later duplicates get `-2`, `-3`…).
 */
export function documentSections(document: JSONDocument | null | undefined): DocumentSection[] {
  const lead: Lines = { id: '', title: '', lines: [] };
  const sections: Lines[] = [lead];
  const taken = new Set<string>(['']);
  let current = lead;
  for (const block of document?.nodes ?? []) {
    if (HEADINGS.has(block.type)) {
      const title = collapse(inlineText(block.nodes ?? []));
      const anchor = headingAnchor(block, title);
      const id = uniqueSlug(anchor.slice(0, MAX_SECTION_ID), taken);
      taken.add(id);
      current = { id, title, lines: [] };
      sections.push(current);
      continue;
    }
    const text = blockText(block);
    if (text) current.lines.push(text);
  }
  return sections.map(({ id, title, lines }) => ({ id, title, body: lines.join('\n') }));
}

interface Lines {
  id: string;
  title: string;
  lines: string[];
}

function headingAnchor(block: DocumentBlock, title: string): string {
  const explicit = block.data?.id ?? block.meta?.id;
  if (typeof explicit === 'string' && explicit !== '') return explicit;
  if (title) return slugify(title);
  return block.key ?? 'section';
}

/** Plain text of a block: its inline text, or its child blocks one per line, then fragments. */
function blockText(block: DocumentBlock): string {
  const parts: string[] = [];
  const children = block.nodes ?? [];
  if (children.some((child) => child.object === 'block')) {
    for (const child of children) {
      const text = child.object === 'block' ? blockText(child) : collapse(inlineText([child]));
      if (text) parts.push(text);
    }
  } else {
    const text = collapse(inlineText(children));
    if (text) parts.push(text);
  }
  for (const fragment of block.fragments ?? []) {
    const text = fragmentText(fragment);
    if (text) parts.push(text);
  }
  return parts.join('\n');
}

function fragmentText(fragment: DocumentFragment): string {
  return (fragment.nodes ?? [])
    .map((block) => blockText(block))
    .filter((text) => text !== '')
    .join('\n');
}

function inlineText(nodes: DocumentNode[]): string {
  let text = '';
  for (const node of nodes) {
    if (node.object === 'text') {
      for (const leaf of node.leaves ?? []) text += leaf.text ?? '';
    } else if (node.object === 'inline') {
      text += inlineNodeText(node);
    } else if (node.object === 'block') {
      text += ` ${blockText(node)} `;
    }
  }
  return text;
}

function inlineNodeText(node: DocumentInline): string {
  let text = inlineText(node.nodes ?? []);
  // Annotations carry their note as a fragment: searchable, but after the annotated text.
  for (const fragment of node.fragments ?? []) text += ` ${fragmentText(fragment)} `;
  return text;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
