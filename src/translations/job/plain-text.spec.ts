import { plainText } from './plain-text';

describe('plainText', () => {
  it('one line per block, nested blocks flattened, empty blocks dropped', () => {
    const text = (t: string) => ({
      object: 'text',
      leaves: [{ object: 'leaf', text: t, marks: [] }],
    });
    expect(
      plainText({
        nodes: [
          { object: 'block', type: 'paragraph', nodes: [text('Be '), text('formal.')] },
          { object: 'block', type: 'paragraph', nodes: [text('  ')] },
          {
            object: 'block',
            type: 'list-unordered',
            nodes: [
              {
                object: 'block',
                type: 'list-item',
                nodes: [{ object: 'block', type: 'paragraph', nodes: [text('Keep names.')] }],
              },
            ],
          },
        ],
      }),
    ).toBe('Be formal.\nKeep names.');
    expect(plainText(null)).toBe('');
  });
});
