import { normalizeKeys } from '../../../test/fixtures/markdown/normalize-document';
import {
  DocumentBlock,
  DocumentInline,
  DocumentLeaf,
  DocumentNode,
  DocumentText,
  JSONDocument,
} from './document';
import { documentToMarkdown, markdownToDocument } from './markdown';

/*
 * Random documents full of characters markdown gives a meaning to, marks and inlines: once
 * written and read, a document writes the same markdown and reads back the same again. The
 * generator is seeded, so failures reproduce.
 */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)];
  return { next, pick };
}

const CHARS = [...'abZ  *_[]()<>{%}$$:#1.-+!`~|\\&;éé日ع🎉\n"\'@htps/w^'];
const MARKS = ['bold', 'italic', 'strikethrough', 'code', 'keyboard', 'superscript', 'subscript'];

function generator(seed: number) {
  const { next, pick } = random(seed);
  const count = (max: number) => 1 + Math.floor(next() * max);
  const word = () => Array.from({ length: count(8) }, () => pick(CHARS)).join('');
  const leaf = (): DocumentLeaf => ({
    object: 'leaf',
    text: word(),
    marks: MARKS.filter(() => next() < 0.15).map((type) => ({ object: 'mark', type })),
  });
  const text = (): DocumentText => ({
    object: 'text',
    leaves: Array.from({ length: count(3) }, leaf),
  });
  const inline = (): DocumentInline => {
    switch (Math.floor(next() * 5)) {
      case 0:
        return {
          object: 'inline',
          type: 'link',
          data: { ref: { kind: 'url', url: pick(['other.md', 'https://x.y/a b', '#a']) } },
          nodes: [text()],
        };
      case 1:
        return {
          object: 'inline',
          type: 'emoji',
          data: { code: pick(['1f389', '1f9ed']) },
          isVoid: true,
        };
      case 2:
        return {
          object: 'inline',
          type: 'inline-math',
          data: { formula: pick(['x^2', 'a*b*c', '\\frac{1}{2}']) },
          isVoid: true,
        };
      case 3:
        return {
          object: 'inline',
          type: 'inline-image',
          data: { ref: { kind: 'url', url: 'i.png' }, alt: pick(['', 'alt']) },
          isVoid: true,
        };
      default:
        return {
          object: 'inline',
          type: 'annotation',
          isVoid: false,
          nodes: [text()],
          fragments: [
            {
              object: 'fragment',
              fragment: 'annotation-body',
              type: 'annotation-body',
              nodes: [paragraph()],
            },
          ],
        };
    }
  };
  const inlines = (): DocumentNode[] =>
    Array.from({ length: count(4) }, () => (next() < 0.7 ? text() : inline()));
  const block = (type: string, nodes: DocumentNode[], data = {}): DocumentBlock => ({
    object: 'block',
    type,
    data,
    nodes,
  });
  function paragraph(): DocumentBlock {
    return block('paragraph', inlines());
  }
  const blockAt = (depth: number): DocumentBlock => {
    switch (Math.floor(next() * (depth > 1 ? 3 : 8))) {
      case 0:
      case 1:
      case 2:
        return paragraph();
      case 3:
        return block(pick(['heading-1', 'heading-2', 'heading-3']), inlines());
      case 4: {
        const ordered = next() < 0.5;
        const items = [
          block('list-item', [blockAt(depth + 1)]),
          block('list-item', [blockAt(depth + 1), blockAt(depth + 1)]),
        ];
        return ordered
          ? block('list-ordered', items, { start: 1 })
          : block('list-unordered', items);
      }
      case 5:
        return block('blockquote', [blockAt(depth + 1)]);
      case 6:
        return block('hint', [blockAt(depth + 1)], { style: 'info' });
      default:
        return block('code', [block('code-line', [text()])], { syntax: 'js' });
    }
  };
  return (): JSONDocument => ({
    object: 'document',
    data: {},
    nodes: Array.from({ length: count(3) }, () => blockAt(0)),
  });
}

const nextDocument = generator(1);
const documents = Array.from({ length: 150 }, (_, i) => [i, nextDocument()] as const);

describe('random documents', () => {
  it.each(documents)('#%i writes and reads back the same once written', async (_, document) => {
    const markdown = await documentToMarkdown(
      await markdownToDocument(await documentToMarkdown(document)),
    );
    const read = await markdownToDocument(markdown);
    expect(await documentToMarkdown(read)).toBe(markdown);
    expect(normalizeKeys(await markdownToDocument(markdown))).toEqual(normalizeKeys(read));
  });
});
