import type { DocumentBlock, JSONDocument, MergeConflict } from '../../content-engine/merge/types';
import { DomainError } from '../../platform/errors/domain-error';
import {
  checkFieldValues,
  matchResolutions,
  metadataUpdate,
  placeAfterPredecessor,
  withBlock,
  type ConflictResolution,
} from './conflict-resolution';

const block = (key: string, text = key): DocumentBlock =>
  ({ object: 'block', key, type: 'paragraph', nodes: [{ object: 'text', text }] }) as never;
const doc = (...keys: string[]): JSONDocument => ({
  object: 'document',
  data: {},
  nodes: keys.map((key) => block(key)),
});
const keys = (document: JSONDocument) => document.nodes.map((node) => node.key);

const edit: MergeConflict = { pageId: 'page', kind: 'block-edit', blockKeys: ['b'] };
const move: MergeConflict = { pageId: 'page', kind: 'block-move', blockKeys: ['b'] };
const title: MergeConflict = {
  pageId: 'page',
  kind: 'metadata',
  blockKeys: [],
  fields: ['slug', 'title'],
};
const deleted: MergeConflict = { pageId: 'other', kind: 'delete-edit', blockKeys: [] };

/** The refusal of `run`, as status kind and message. */
function refusal(run: () => unknown): { kind: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return { kind: error.kind, message: error.message };
    throw error;
  }
  throw new Error('not refused');
}

describe('matchResolutions', () => {
  it('pairs each resolution with the conflicts it names, a block key taking all of its kinds', () => {
    const byKey: ConflictResolution = { pageId: 'page', blockKey: 'b', keep: 'primary' };
    const byKind: ConflictResolution = { pageId: 'page', kind: 'metadata', keep: 'base' };
    expect(matchResolutions([edit, move, title], [byKey, byKind])).toEqual([
      { resolution: byKey, index: 0, conflicts: [edit, move] },
      { resolution: byKind, index: 1, conflicts: [title] },
    ]);
  });

  it('refuses with 409 a resolution naming no conflict, and conflicts left unresolved', () => {
    expect(
      refusal(() =>
        matchResolutions(
          [edit],
          [
            { pageId: 'page', blockKey: 'b', keep: 'primary' },
            { pageId: 'page', blockKey: 'c', keep: 'primary' },
          ],
        ),
      ),
    ).toEqual({ kind: 'conflict', message: expect.stringContaining('block c) names no conflict') });
    expect(
      refusal(() =>
        matchResolutions([edit, deleted], [{ pageId: 'page', blockKey: 'b', keep: 'base' }]),
      ),
    ).toEqual({
      kind: 'conflict',
      message: expect.stringContaining(
        'unresolved, so nothing was written: delete-edit on page other',
      ),
    });
  });

  it('refuses with 400 what cannot be said together or cannot settle its conflict', () => {
    const bad: [ConflictResolution[], string][] = [
      [[{ pageId: 'page', blockKey: 'b' }], 'one of keep, block or fields'],
      [[{ pageId: 'page', blockKey: 'b', keep: 'base', block: block('b') }], 'one of keep'],
      [[{ pageId: 'page', keep: 'base' }], 'must name its conflict'],
      [[{ pageId: 'page', blockKey: 'b', kind: 'metadata', keep: 'base' }], 'a blockKey names'],
      [[{ pageId: 'page', kind: 'metadata', block: block('b') }], 'block needs the blockKey'],
      [[{ pageId: 'page', blockKey: 'b', fields: {} }], 'fields is for a metadata conflict'],
      [[{ pageId: 'page', kind: 'metadata', fields: { title: 'T' } }], 'exactly the fields'],
      [
        [{ pageId: 'other', kind: 'delete-edit', keep: 'base' }],
        "change request's or the primary's",
      ],
      [
        [
          { pageId: 'page', blockKey: 'b', keep: 'base' },
          { pageId: 'page', blockKey: 'b', kind: 'block-move', keep: 'primary' },
        ],
        'both resolve',
      ],
    ];
    for (const [resolutions, message] of bad) {
      expect(refusal(() => matchResolutions([edit, move, title, deleted], resolutions))).toEqual({
        kind: 'bad_request',
        message: expect.stringContaining(message),
      });
    }
    const cycle: MergeConflict = { pageId: 'page', kind: 'cycle', blockKeys: [] };
    expect(
      refusal(() =>
        matchResolutions([cycle], [{ pageId: 'page', kind: 'cycle', keep: 'primary' }]),
      ),
    ).toEqual({ kind: 'bad_request', message: expect.stringContaining('cannot be resolved here') });
  });
});

describe('placeAfterPredecessor', () => {
  it('places after the nearest predecessor the target has, else first', () => {
    expect(placeAfterPredecessor(['a', 'b', 'x'], ['a', 'b', 'c'], 'x')).toBe(2);
    expect(placeAfterPredecessor(['a', 'gone', 'x'], ['c', 'a'], 'x')).toBe(2);
    expect(placeAfterPredecessor(['gone', 'x'], ['a', 'b'], 'x')).toBe(0);
    expect(placeAfterPredecessor(['x', 'a'], ['a'], 'x')).toBe(0);
  });
});

describe('withBlock', () => {
  it('replaces a block in place, removes it for null, and inserts it where the kept version has it', () => {
    const replaced = withBlock(doc('a', 'b', 'c'), 'b', block('b', 'new'), doc('b'), false);
    expect(keys(replaced)).toEqual(['a', 'b', 'c']);
    expect(replaced.nodes[1]).toEqual(block('b', 'new'));
    expect(keys(withBlock(doc('a', 'b', 'c'), 'b', null, doc(), false))).toEqual(['a', 'c']);
    expect(keys(withBlock(doc('a', 'c'), 'b', block('b'), doc('a', 'b', 'c'), false))).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  it('moves the block where the kept version has it for a move conflict', () => {
    expect(keys(withBlock(doc('b', 'a', 'c'), 'b', block('b'), doc('a', 'c', 'b'), true))).toEqual([
      'a',
      'c',
      'b',
    ]);
  });

  it('gives a block merged by hand the key it resolves', () => {
    const merged = withBlock(doc('a', 'b'), 'b', block('other', 'hand'), doc(), false);
    expect(merged.nodes[1]).toEqual({ ...block('other', 'hand'), key: 'b' });
  });
});

describe('checkFieldValues', () => {
  const versions = [{ title: 'Base', hidden: false }, { title: 'Ours', hidden: true }, {}];
  const problem = (fields: Record<string, unknown>) =>
    refusal(() => checkFieldValues(fields, versions, 'resolutions[0]')).message;

  it('takes values of the types the versions give, and null', () => {
    expect(() =>
      checkFieldValues({ title: 'Both', slug: 'both', hidden: null }, versions, 'r'),
    ).not.toThrow();
    expect(() => checkFieldValues({ emoji: '1f600' }, versions, 'r')).not.toThrow();
  });

  it('refuses a value of another type, an empty title and an invalid slug', () => {
    expect(problem({ hidden: 'yes' })).toBe(
      'resolutions[0].fields.hidden must be boolean or null.',
    );
    expect(problem({ title: '' })).toContain('fields.title must be a non-empty string');
    expect(problem({ title: 5 })).toContain('fields.title must be a non-empty string');
    expect(problem({ slug: 'Not A Slug' })).toContain('fields.slug must be a slug');
  });
});

describe('metadataUpdate', () => {
  it('sets the fields in conflict to the kept values, null for absent ones', () => {
    expect(
      metadataUpdate(['description', 'emoji'], { description: 'Kept' }, { emoji: '1f600' }),
    ).toEqual({ description: 'Kept', emoji: null });
  });

  it("carries the side's own slug with a new title, unless the slug is in conflict too", () => {
    expect(metadataUpdate(['title'], { title: 'New' }, { title: 'Old', slug: 'old' })).toEqual({
      title: 'New',
      slug: 'old',
    });
    expect(
      metadataUpdate(['slug', 'title'], { title: 'New', slug: 'new' }, { slug: 'old' }),
    ).toEqual({ title: 'New', slug: 'new' });
  });
});
