import { EmbeddingsError, replyVectors } from './embeddings';

describe('replyVectors', () => {
  const reply = (data: unknown) => JSON.stringify({ object: 'list', data });

  it('places the vectors by index', () => {
    expect(
      replyVectors(
        reply([
          { index: 1, embedding: [0, 1] },
          { index: 0, embedding: [1, 0] },
        ]),
        2,
      ),
    ).toEqual([
      [1, 0],
      [0, 1],
    ]);
  });

  it.each([
    ['not JSON', 'oops', 1],
    ['too few items', reply([{ index: 0, embedding: [1] }]), 2],
    [
      'a repeated index',
      reply([
        { index: 0, embedding: [1] },
        { index: 0, embedding: [1] },
      ]),
      2,
    ],
    ['an index out of range', reply([{ index: 3, embedding: [1] }]), 1],
    ['a non-number', reply([{ index: 0, embedding: [1, 'x'] }]), 1],
    ['an empty vector', reply([{ index: 0, embedding: [] }]), 1],
    ['vectors of different lengths', reply([{ embedding: [1] }, { embedding: [1, 2] }]), 2],
  ])('refuses %s', (_, text, count) => {
    expect(() => replyVectors(text, count)).toThrow(EmbeddingsError);
  });
});
