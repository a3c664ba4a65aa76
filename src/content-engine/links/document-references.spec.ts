import type { DocumentBlock, JSONDocument } from '../documents/document';
import { asContentRef, documentAnchors, documentReferences } from './document-references';

const text = (value: string) => ({
  object: 'text' as const,
  leaves: [{ object: 'leaf' as const, text: value, marks: [] }],
});

const doc = (...nodes: DocumentBlock[]): JSONDocument => ({ object: 'document', data: {}, nodes });

describe('documentReferences', () => {
  it('collects every kind of reference, with the key of the node holding it', () => {
    const document = doc(
      {
        object: 'block',
        type: 'paragraph',
        key: 'p1',
        nodes: [
          text('See '),
          {
            object: 'inline',
            type: 'link',
            key: 'l1',
            data: { ref: { kind: 'page', page: 'pgA' } },
            nodes: [text('A')],
          },
          {
            object: 'inline',
            type: 'mention',
            key: 'm1',
            isVoid: true,
            data: { ref: { kind: 'user', user: 'u1' } },
          },
          {
            object: 'inline',
            type: 'button',
            key: 'b1',
            isVoid: true,
            data: { label: 'Go', kind: 'primary', ref: { kind: 'url', url: 'https://x.test' } },
          },
          {
            object: 'inline',
            type: 'inline-image',
            key: 'ii',
            isVoid: true,
            data: { ref: { kind: 'file', file: 'f1' }, refDark: { kind: 'file', file: 'f2' } },
          },
        ],
      },
      {
        object: 'block',
        type: 'images',
        key: 'imgs',
        nodes: [
          {
            object: 'block',
            type: 'image',
            key: 'img1',
            isVoid: true,
            data: { ref: { kind: 'url', url: 'https://img.test/a.png' } },
          },
        ],
      },
      {
        object: 'block',
        type: 'file',
        key: 'f',
        isVoid: true,
        data: { ref: { kind: 'file', file: 'f3' } },
      },
      {
        object: 'block',
        type: 'drawing',
        key: 'd',
        isVoid: true,
        data: { ref: { kind: 'file', file: 'f4' } },
      },
      {
        object: 'block',
        type: 'embed',
        key: 'e',
        isVoid: true,
        data: { url: 'https://video.test/1' },
      },
      {
        object: 'block',
        type: 'content-ref',
        key: 'cr',
        isVoid: true,
        data: { ref: { kind: 'page', page: 'pgB' } },
      },
      {
        object: 'block',
        type: 'reusable-content',
        key: 'rc',
        isVoid: true,
        data: { ref: { kind: 'reusable-content', reusableContent: 'rc1' } },
      },
    );
    expect(documentReferences(document)).toEqual([
      { ref: { kind: 'page', page: 'pgA' }, relation: 'reference', node: 'l1' },
      { ref: { kind: 'user', user: 'u1' }, relation: 'reference', node: 'm1' },
      { ref: { kind: 'url', url: 'https://x.test' }, relation: 'reference', node: 'b1' },
      { ref: { kind: 'file', file: 'f1' }, relation: 'reference', node: 'ii' },
      { ref: { kind: 'file', file: 'f2' }, relation: 'reference', node: 'ii' },
      { ref: { kind: 'url', url: 'https://img.test/a.png' }, relation: 'reference', node: 'img1' },
      { ref: { kind: 'file', file: 'f3' }, relation: 'reference', node: 'f' },
      { ref: { kind: 'file', file: 'f4' }, relation: 'reference', node: 'd' },
      { ref: { kind: 'url', url: 'https://video.test/1' }, relation: 'reference', node: 'e' },
      { ref: { kind: 'page', page: 'pgB' }, relation: 'dependsOn', node: 'cr' },
      {
        ref: { kind: 'reusable-content', reusableContent: 'rc1' },
        relation: 'dependsOn',
        node: 'rc',
      },
    ]);
  });

  it('searches fragments and falls back to the nearest keyed ancestor', () => {
    const document = doc({
      object: 'block',
      type: 'expandable',
      key: 'exp',
      isVoid: true,
      fragments: [
        {
          object: 'fragment',
          fragment: 'expandable-body',
          nodes: [
            {
              object: 'block',
              type: 'paragraph',
              nodes: [
                {
                  object: 'inline',
                  type: 'link',
                  data: { ref: { kind: 'anchor', anchor: 'setup' } },
                  nodes: [text('setup')],
                },
              ],
            },
          ],
        },
      ],
    });
    expect(documentReferences(document)).toEqual([
      { ref: { kind: 'anchor', anchor: 'setup' }, relation: 'reference', node: 'exp' },
    ]);
  });

  it("collects a table's card targets and covers (files by id)", () => {
    const document = doc({
      object: 'block',
      type: 'table',
      key: 'tb',
      isVoid: true,
      data: {
        definition: {
          t: { id: 't', title: '', type: 'content-ref' },
          c: { id: 'c', title: '', type: 'files' },
          n: { id: 'n', title: '', type: 'text' },
        },
        records: {
          r: { orderIndex: 'a0', values: { t: { kind: 'page', page: 'pgA' }, c: ['f1'], n: 'x' } },
        },
      },
    });
    expect(documentReferences(document)).toEqual([
      { ref: { kind: 'page', page: 'pgA' }, relation: 'reference', node: 'tb' },
      { ref: { kind: 'file', file: 'f1' }, relation: 'reference', node: 'tb' },
    ]);
  });

  it('skips malformed references', () => {
    const document = doc(
      { object: 'block', type: 'file', isVoid: true, data: { ref: { kind: 'file' } } },
      { object: 'block', type: 'content-ref', isVoid: true, data: { ref: 'pgA' } },
      { object: 'block', type: 'file', isVoid: true, data: { ref: { kind: 'nope', nope: 'x' } } },
      { object: 'block', type: 'embed', isVoid: true, data: { url: 42 } },
    );
    expect(documentReferences(document)).toEqual([]);
    expect(asContentRef({ kind: 'page', page: '' })).toBeUndefined();
    expect(asContentRef({ kind: 'openapi', spec: 'petstore' })).toEqual({
      kind: 'openapi',
      spec: 'petstore',
    });
  });
});

describe('documentAnchors', () => {
  it("names headings as search does and adds blocks' meta ids", () => {
    const document = doc(
      { object: 'block', type: 'heading-1', data: {}, nodes: [text('Getting Started')] },
      { object: 'block', type: 'heading-2', data: { id: 'custom' }, nodes: [text('Other')] },
      {
        object: 'block',
        type: 'tabs',
        nodes: [{ object: 'block', type: 'tabs-item', meta: { id: 'tab-one' }, nodes: [] }],
      },
    );
    expect([...documentAnchors(document)].sort()).toEqual(['custom', 'getting-started', 'tab-one']);
  });
});
