import { findNodeByKey, hasTableCell } from './document-nodes';

const text = (key: string) => ({ object: 'text', key, leaves: [] });

describe('findNodeByKey', () => {
  const document = {
    object: 'document',
    data: {},
    nodes: [
      { object: 'block', key: 'top', type: 'paragraph', nodes: [text('leaf-text')] },
      {
        object: 'block',
        key: 'list',
        type: 'list-unordered',
        nodes: [
          {
            object: 'block',
            key: 'item',
            type: 'list-item',
            nodes: [{ object: 'block', key: 'deep', type: 'paragraph', nodes: [] }],
          },
        ],
      },
      {
        object: 'block',
        key: 'expandable',
        type: 'expandable',
        isVoid: true,
        fragments: [
          {
            object: 'fragment',
            fragment: 'expandable-body',
            type: 'expandable-body',
            nodes: [{ object: 'block', key: 'in-fragment', type: 'paragraph', nodes: [] }],
          },
        ],
      },
    ],
  };

  it.each(['top', 'leaf-text', 'list', 'item', 'deep', 'expandable', 'in-fragment'])(
    'finds %s',
    (key) => expect(findNodeByKey(document, key)).toMatchObject({ key }),
  );

  it('finds nothing for a key that is not there', () => {
    expect(findNodeByKey(document, 'missing')).toBeNull();
    expect(findNodeByKey({ nodes: [] }, 'top')).toBeNull();
    expect(findNodeByKey({}, 'top')).toBeNull();
  });
});

describe('hasTableCell', () => {
  const table = {
    key: 't',
    type: 'table',
    data: { records: { r1: { orderIndex: 'a', values: {} } }, definition: { c1: { id: 'c1' } } },
  };

  it('finds a record and a definition of a table', () => {
    expect(hasTableCell(table, 'r1', 'c1')).toBe(true);
  });

  it('refuses an unknown record or definition, and a node that is not a table', () => {
    expect(hasTableCell(table, 'r2', 'c1')).toBe(false);
    expect(hasTableCell(table, 'r1', 'c2')).toBe(false);
    expect(hasTableCell(table, 'toString', 'c1')).toBe(false);
    expect(hasTableCell({ ...table, type: 'paragraph' }, 'r1', 'c1')).toBe(false);
    expect(hasTableCell({ key: 't', type: 'table' }, 'r1', 'c1')).toBe(false);
  });
});
