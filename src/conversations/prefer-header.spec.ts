import { prefersRepresentation } from './prefer-header';

describe('prefersRepresentation', () => {
  it.each([
    ['return=representation', true],
    ['Return=Representation', true],
    ['respond-async, return=representation; foo=bar', true],
    ['return="representation"', true],
    [['wait=10', 'return=representation'], true],
    ['return=minimal', false],
    ['representation', false],
    ['', false],
    [undefined, false],
  ])('%p → %p', (prefer, expected) => {
    expect(prefersRepresentation(prefer)).toBe(expected);
  });
});
