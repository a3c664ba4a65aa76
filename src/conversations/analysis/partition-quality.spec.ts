import { adjustedRandIndex } from './partition-quality';

describe('adjustedRandIndex', () => {
  it('is 1 for the same partition, whatever the cluster names', () => {
    expect(adjustedRandIndex(['a', 'a', 'b', 'b'], ['x', 'x', 'y', 'y'])).toBe(1);
  });

  it('matches the textbook examples (scikit-learn adjusted_rand_score)', () => {
    // sklearn.metrics.adjusted_rand_score([0, 0, 1, 1], [0, 0, 1, 2]) == 0.5714285714285715
    expect(adjustedRandIndex(['0', '0', '1', '1'], ['0', '0', '1', '2'])).toBeCloseTo(4 / 7, 12);
    // adjusted_rand_score([0, 0, 1, 2], [0, 0, 1, 1]) == 0.5714285714285715 (symmetric)
    expect(adjustedRandIndex(['0', '0', '1', '2'], ['0', '0', '1', '1'])).toBeCloseTo(4 / 7, 12);
    // adjusted_rand_score([0, 0, 0, 0], [0, 1, 2, 3]) == 0.0
    expect(adjustedRandIndex(['0', '0', '0', '0'], ['0', '1', '2', '3'])).toBe(0);
    // adjusted_rand_score([0, 0, 1, 1], [0, 1, 0, 1]) == -0.5
    expect(adjustedRandIndex(['0', '0', '1', '1'], ['0', '1', '0', '1'])).toBeCloseTo(-0.5, 12);
  });

  it('matches the Hubert–Arabie formula on a larger contingency table', () => {
    // Classes a×5, b×5, c×5; clusters: {a×4, b×1}, {a×1, b×4, c×1}, {c×4}.
    const truth = [...'aaaaabbbbbccccc'];
    const predicted = [...('xxxxy' + 'xyyyy' + 'yzzzz')];
    // index = 6+6+6 = 18; rows = 3·10 = 30; columns = C(5,2)+C(6,2)+C(4,2) = 10+15+6 = 31;
    // expected = 30·31/105; ARI = (18 − expected) / (30.5 − expected).
    const expected = (30 * 31) / 105;
    expect(adjustedRandIndex(truth, predicted)).toBeCloseTo(
      (18 - expected) / (30.5 - expected),
      12,
    );
  });

  it('refuses labels of different lengths', () => {
    expect(() => adjustedRandIndex(['a'], ['a', 'b'])).toThrow('1 classes for 2 clusters');
  });
});
