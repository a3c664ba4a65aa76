import { batches } from './batches';

describe('batches', () => {
  it('splits by segment count', () => {
    expect(batches(['a', 'b', 'c', 'd', 'e'], { maxSegments: 2, maxChars: 100 })).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e'],
    ]);
  });

  it('splits by characters, a longer text going alone', () => {
    expect(
      batches(['aaaa', 'bbbb', 'cc', 'dddddddddd', 'e'], { maxSegments: 10, maxChars: 8 }),
    ).toEqual([['aaaa', 'bbbb'], ['cc'], ['dddddddddd'], ['e']]);
  });

  it('keeps the order and every text', () => {
    const texts = Array.from({ length: 123 }, (_, i) => `text ${i}`);
    const result = batches(texts, { maxSegments: 10, maxChars: 50 });
    expect(result.flat()).toEqual(texts);
    for (const batch of result) {
      expect(batch.length).toBeLessThanOrEqual(10);
      expect(batch.join('').length).toBeLessThanOrEqual(50);
    }
  });

  it('no texts, no batches', () => {
    expect(batches([], { maxSegments: 1, maxChars: 1 })).toEqual([]);
  });
});
