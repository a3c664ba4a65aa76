import { markdownToDocument } from '../../content-engine/documents/markdown';

/** What one `response_document` event carries. */
export interface DocumentChange {
  operation: 'insert' | 'update';
  blocks: object[];
}

/** An empty paragraph: fills the place of a block the text no longer has (see `changes`). */
const EMPTY_PARAGRAPH = {
  object: 'block',
  type: 'paragraph',
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] }],
};

/** A block as compared: without its `key`, which each conversion may make anew. */
const comparable = (block: object) =>
  JSON.stringify(block, (name, value: unknown) => (name === 'key' ? undefined : value));

/**
 * A step's text as GitBook's renderer builds it from `response_document` events: `insert`
 * appends blocks, `update` replaces the last as many blocks as it carries. Each time the text
 * grows, its document is made again and only what changed is sent: the blocks from the first
 * that differs to the end (an update), then the new ones (an insert).
 */
export class DocumentStream {
  private sent: object[] = [];

  /**
   * The events that take the client's blocks to those of `markdown`. While the text comes
   * (`final` false), a document with fewer blocks than sent waits for more text; at its end, the
   * places left are filled with empty paragraphs (an update cannot remove blocks).
   */
  async changes(markdown: string, final: boolean): Promise<DocumentChange[]> {
    const blocks: object[] =
      markdown.trim() === '' ? [] : (await markdownToDocument(markdown)).nodes;
    if (blocks.length < this.sent.length) {
      if (!final) return [];
      while (blocks.length < this.sent.length) blocks.push(EMPTY_PARAGRAPH);
    }
    let first = 0;
    while (first < this.sent.length && comparable(this.sent[first]) === comparable(blocks[first])) {
      first++;
    }
    const changes: DocumentChange[] = [];
    if (first < this.sent.length) {
      changes.push({ operation: 'update', blocks: blocks.slice(first, this.sent.length) });
    }
    if (blocks.length > this.sent.length) {
      changes.push({ operation: 'insert', blocks: blocks.slice(this.sent.length) });
    }
    this.sent = blocks;
    return changes;
  }
}
