import type { DocumentBlock } from '../documents/document';
import { blockStats, diffBlocks, MAX_BLOCK_EDITS } from './block-diff';
import { inlineDiff, MAX_INLINE_EDITS, plainText } from './inline-diff';

const paragraph = (key: string | undefined, text: string): DocumentBlock => ({
  object: 'block',
  ...(key === undefined ? {} : { key }),
  type: 'paragraph',
  data: {},
  nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
});
const divider = (key?: string): DocumentBlock => ({
  object: 'block',
  ...(key === undefined ? {} : { key }),
  type: 'divider',
  isVoid: true,
  data: {},
});

/** `status key-or-text` per entry. */
const outline = (before: DocumentBlock[], after: DocumentBlock[]) =>
  diffBlocks(before, after).map(
    (entry) =>
      `${entry.status}${entry.moved ? '+moved' : ''} ${entry.key ?? plainText((entry.after ?? entry.before)!)}`,
  );

describe('diffBlocks', () => {
  const base = [paragraph('a', 'One'), paragraph('b', 'Two'), paragraph('c', 'Three')];

  it('keeps unchanged blocks, once, in order', () => {
    const entries = diffBlocks(base, base);
    expect(entries.map((entry) => entry.status)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    expect(entries[0]).toEqual({
      status: 'unchanged',
      key: 'a',
      type: 'paragraph',
      after: base[0],
    });
  });

  it('matches blocks by key: added, removed where they were, changed with inline differences', () => {
    const after = [paragraph('a', 'One'), paragraph('x', 'New'), paragraph('c', 'Three and more')];
    expect(outline(base, after)).toEqual(['unchanged a', 'removed b', 'added x', 'changed c']);
    const changed = diffBlocks(base, after)[3];
    expect(changed.before).toEqual(base[2]);
    expect(changed.after).toEqual(after[2]);
    expect(changed.inline).toEqual([
      { op: 'equal', text: 'Three' },
      { op: 'insert', text: ' and more' },
    ]);
  });

  it('calls a block moved when its order changed, not when neighbours come and go', () => {
    const after = [paragraph('c', 'Three!'), paragraph('a', 'One'), paragraph('b', 'Two')];
    expect(outline(base, after)).toEqual(['changed+moved c', 'unchanged a', 'unchanged b']);
    expect(
      outline(base, [paragraph('b', 'Two'), paragraph('a', 'One'), paragraph('c', 'Three')]),
    ).toEqual(['moved b', 'unchanged a', 'unchanged c']);
    expect(outline(base, [paragraph('z', 'Zero'), ...base.slice(1)])).toEqual([
      'removed a',
      'added z',
      'unchanged b',
      'unchanged c',
    ]);
  });

  it('aligns blocks without keys by content, and pairs replaced blocks of the same type', () => {
    const before = [paragraph(undefined, 'Intro'), divider(), paragraph(undefined, 'The old end.')];
    const after = [
      paragraph(undefined, 'Intro'),
      paragraph(undefined, 'Inserted.'),
      divider(),
      paragraph(undefined, 'The new end.'),
    ];
    expect(outline(before, after)).toEqual([
      'unchanged Intro',
      'added Inserted.',
      'unchanged ',
      'changed The new end.',
    ]);
    expect(diffBlocks(before, after)[3].inline).toEqual([
      { op: 'equal', text: 'The ' },
      { op: 'delete', text: 'old' },
      { op: 'insert', text: 'new' },
      { op: 'equal', text: ' end.' },
    ]);
  });

  it('past the edit budget, pairs the blocks without keys by type alone', () => {
    // The same block X moves from first to last while every other block is rewritten.
    const shape = (count: number) => {
      const rewritten = (text: string) =>
        Array.from({ length: count }, (_, i) => paragraph(undefined, `${text} ${i}`));
      const x = paragraph(undefined, 'X');
      return { before: [x, ...rewritten('Old')], after: [...rewritten('New'), x] };
    };
    const small = shape(3);
    expect(diffBlocks(small.before, small.after).map((entry) => entry.status)).toEqual([
      'added',
      'added',
      'added',
      // Nothing else stayed, so X's order relative to the others did not change.
      'unchanged',
      'removed',
      'removed',
      'removed',
    ]);
    // 2 × MAX_BLOCK_EDITS edits: X is no longer found, and every block is an edit of another.
    const large = shape(MAX_BLOCK_EDITS);
    const entries = diffBlocks(large.before, large.after);
    expect(blockStats(entries)).toEqual({
      added: 0,
      removed: 0,
      changed: MAX_BLOCK_EDITS + 1,
      moved: 0,
      unchanged: 0,
    });
  });

  it('treats a repeated key as no key', () => {
    const before = [paragraph('k', 'First'), paragraph('k', 'Second')];
    expect(outline(before, [paragraph('k', 'Second')])).toEqual(['removed k', 'unchanged k']);
  });

  it('lists a page on one side only as all added or all removed', () => {
    expect(outline([], base)).toEqual(['added a', 'added b', 'added c']);
    expect(outline(base, [])).toEqual(['removed a', 'removed b', 'removed c']);
    expect(blockStats(diffBlocks(base, []))).toEqual({
      added: 0,
      removed: 3,
      changed: 0,
      moved: 0,
      unchanged: 0,
    });
  });

  it('gives no inline differences for a changed block without text', () => {
    const entries = diffBlocks([divider('d')], [{ ...divider('d'), data: { style: 'dashed' } }]);
    expect(entries).toMatchObject([{ status: 'changed', key: 'd' }]);
    expect(entries[0]).not.toHaveProperty('inline');
  });
});

describe('plainText', () => {
  it('puts nested blocks on lines of their own', () => {
    const list: DocumentBlock = {
      object: 'block',
      type: 'list-unordered',
      nodes: [
        { object: 'block', type: 'list-item', nodes: [paragraph(undefined, 'One')] },
        { object: 'block', type: 'list-item', nodes: [paragraph(undefined, 'Two')] },
      ],
    };
    expect(plainText(list)).toBe('One\nTwo');
  });

  it('replaces a text rewritten past the edit budget whole', () => {
    const words = (prefix: string) =>
      Array.from({ length: MAX_INLINE_EDITS }, (_, i) => `${prefix}${i}`).join(' ');
    const [before, after] = [words('old'), words('new')];
    expect(inlineDiff(before, after)).toEqual([
      { op: 'delete', text: before },
      { op: 'insert', text: after },
    ]);
  });

  it('diffs whitespace too', () => {
    expect(inlineDiff('a b', 'a  b')).toEqual([
      { op: 'equal', text: 'a' },
      { op: 'delete', text: ' ' },
      { op: 'insert', text: '  ' },
      { op: 'equal', text: 'b' },
    ]);
  });
});
