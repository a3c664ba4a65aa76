import { entityTagOf, expectedRevisionOf } from './if-match';

describe('If-Match', () => {
  it.each([
    ['"abc_DEF-1"', 'abc_DEF-1'],
    ['W/"abc"', 'abc'],
    ['abc', 'abc'],
    ['  "abc"  ', 'abc'],
  ])('%j expects revision %s', (header, revision) => {
    expect(expectedRevisionOf(header)).toBe(revision);
  });

  it.each([[undefined], [''], ['*']])('%j expects nothing', (header) => {
    expect(expectedRevisionOf(header)).toBeUndefined();
  });

  it.each([['"a", "b"'], ['"abc'], ['""'], ['a b']])('%j is a 400', (header) => {
    expect(() => expectedRevisionOf(header)).toThrow(
      expect.objectContaining({
        kind: 'bad_request',
        message: expect.stringContaining('If-Match'),
      }),
    );
  });

  it('quotes a revision id as its ETag, which reads back', () => {
    expect(entityTagOf('rev1')).toBe('"rev1"');
    expect(expectedRevisionOf(entityTagOf('rev1'))).toBe('rev1');
  });
});
