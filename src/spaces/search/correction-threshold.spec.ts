import {
  CORRECTION_SIMILARITY,
  correctionThreshold,
  leastSimilarity,
  trigramsOf,
} from './correction-threshold';

/** pg_trgm's similarity: shared distinct trigrams over all distinct trigrams of the two. */
function similarity(a: string, b: string): number {
  const x = trigramsOf(a);
  const y = trigramsOf(b);
  const shared = [...x].filter((trigram) => y.has(trigram)).length;
  return shared / (x.size + y.size - shared);
}

/** A deterministic pseudo-random source, so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % below;
  };
}

function edited(word: string, edits: number, next: (below: number) => number, letters: string) {
  let chars = [...word];
  for (let i = 0; i < edits; i++) {
    const at = next(chars.length + 1);
    const letter = letters[next(letters.length)];
    const kind = next(3);
    if (kind === 0 && at < chars.length) chars[at] = letter;
    else if (kind === 1) chars.splice(at, 0, letter);
    else if (chars.length > 1) chars = chars.filter((_, j) => j !== Math.min(at, chars.length - 1));
  }
  return chars.join('');
}

describe('correction thresholds', () => {
  it("counts pg_trgm's trigrams: padded, distinct", () => {
    expect([...trigramsOf('cat')]).toEqual(['  c', ' ca', 'cat', 'at ']);
    expect(trigramsOf('aaaa').size).toBe(4); // '  a', ' aa', 'aaa', 'aa '
  });

  it('never exceeds the similarity of a word within the edits (random words and edits)', () => {
    const next = random(7);
    // Few letters make repeated trigrams, where a looser count would go wrong.
    for (const letters of ['ab', 'abc', 'abcdefghijklmnopqrstuvwxyz']) {
      for (let i = 0; i < 3000; i++) {
        const length = 4 + next(12);
        const term = Array.from({ length }, () => letters[next(letters.length)]).join('');
        const maxEdits = length >= 6 ? 2 : 1;
        const word = edited(term, 1 + next(maxEdits), next, letters);
        expect(similarity(term, word)).toBeGreaterThanOrEqual(leastSimilarity(term, maxEdits));
      }
    }
  });

  it('raises the threshold for long words only, and never above a term of the statement', () => {
    expect(leastSimilarity('authentcation', 2)).toBeCloseTo(8 / 22, 5);
    expect(correctionThreshold([{ text: 'authentcation', maxEdits: 2 }])).toBeCloseTo(0.363, 3);
    expect(correctionThreshold([{ text: 'webhok', maxEdits: 2 }])).toBe(CORRECTION_SIMILARITY);
    expect(correctionThreshold([{ text: 'recrod', maxEdits: 2 }])).toBe(CORRECTION_SIMILARITY);
    // Two terms in one statement: the lower of their thresholds.
    expect(
      correctionThreshold([
        { text: 'authentcation', maxEdits: 2 },
        { text: 'kubernets', maxEdits: 2 },
      ]),
    ).toBe(correctionThreshold([{ text: 'kubernets', maxEdits: 2 }]));
    expect(correctionThreshold([{ text: 'kubernets', maxEdits: 2 }])).toBeLessThan(0.25);
    expect(correctionThreshold([])).toBe(CORRECTION_SIMILARITY);
    // `recrod`/`record` (two letters swapped: two edits) stays found, at 0.27.
    expect(similarity('recrod', 'record')).toBeGreaterThan(
      correctionThreshold([{ text: 'recrod', maxEdits: 2 }]),
    );
  });
});
