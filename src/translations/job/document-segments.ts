import type {
  DocumentBlock,
  DocumentInline,
  DocumentLeaf,
  DocumentNode,
  JSONDocument,
} from '../../content-engine/documents/document';

/**
 * The text of a document that a translation changes, and nothing else: the leaves of text
 * nodes. Code blocks, math, API blocks and integrations are skipped whole, as are inline code
 * (`code` and `keyboard` marks), variables (`expression` inlines), mentions, emojis, icons and
 * buttons; node data (link targets, image and embed URLs, ids) is never touched. A leaf that is
 * a URL, or holds no letter at all, is kept as it is. Each segment is the leaf's text without
 * its surrounding white space, which is put back around the translation.
 */

const SKIPPED_BLOCKS = new Set([
  'code',
  'math',
  'swagger',
  'openapi-operation',
  'openapi-schemas',
  'openapi-webhook',
  'integration',
]);

const SKIPPED_INLINES = new Set([
  'expression',
  'inline-math',
  'mention',
  'emoji',
  'icon',
  'button',
  'inline-image',
]);

const SKIPPED_MARKS = new Set(['code', 'keyboard']);

const URL_ONLY = /^(?:[a-z][a-z0-9+.-]*:\/\/|www\.|mailto:)\S*$/i;
const LETTER = /\p{L}/u;

/** Whether `text` (trimmed) is worth sending to a translator. */
export function isTranslatable(text: string): boolean {
  return LETTER.test(text) && !URL_ONLY.test(text);
}

/** Words of `text`, as the statistics count them (runs of non-space characters). */
export function countWords(text: string): number {
  return text.match(/\S+/g)?.length ?? 0;
}

interface LeafSlot {
  leaf: DocumentLeaf;
  lead: string;
  trail: string;
}

/** A document's segments, and how to make the translated document from their translations. */
export interface DocumentSegments {
  texts: string[];
  /** A copy of the document with `translations[i]` in place of `texts[i]`. */
  apply(translations: readonly string[]): JSONDocument;
}

export function documentSegments(document: JSONDocument): DocumentSegments {
  const slots = documentSegmentSlots(document);
  return {
    texts: slots.map(({ leaf, lead, trail }) =>
      leaf.text.slice(lead.length, leaf.text.length - trail.length),
    ),
    apply: (translations) => {
      if (translations.length !== slots.length) {
        throw new Error(`Expected ${slots.length} translations, got ${translations.length}`);
      }
      const result = structuredClone(document);
      documentSegmentSlots(result).forEach((slot, index) => {
        slot.leaf.text = `${slot.lead}${translations[index]}${slot.trail}`;
      });
      return result;
    },
  };
}

/** The slots of `document`, in the order `documentSegments` lists their texts. */
function documentSegmentSlots(document: JSONDocument): LeafSlot[] {
  const slots: LeafSlot[] = [];
  const visit = (nodes: readonly DocumentNode[] | undefined): void => {
    for (const node of nodes ?? []) {
      if (node.object === 'text') {
        for (const leaf of node.leaves ?? []) collectLeaf(leaf, slots);
        continue;
      }
      const skipped =
        node.object === 'block' ? SKIPPED_BLOCKS.has(node.type) : SKIPPED_INLINES.has(node.type);
      if (skipped) continue;
      visit(node.nodes as DocumentNode[] | undefined);
      for (const fragment of (node as DocumentBlock | DocumentInline).fragments ?? []) {
        visit(fragment.nodes);
      }
    }
  };
  visit(document.nodes);
  return slots;
}

function collectLeaf(leaf: DocumentLeaf, slots: LeafSlot[]): void {
  if (typeof leaf.text !== 'string') return;
  if ((leaf.marks ?? []).some((mark) => SKIPPED_MARKS.has(mark.type))) return;
  const trimmed = leaf.text.trim();
  if (!isTranslatable(trimmed)) return;
  const lead = leaf.text.slice(0, leaf.text.length - leaf.text.trimStart().length);
  const trail = leaf.text.slice(leaf.text.trimEnd().length);
  slots.push({ leaf, lead, trail });
}
