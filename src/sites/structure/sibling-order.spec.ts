import { placeAmong } from './sibling-order';

describe('placeAmong', () => {
  const siblings = ['a', 'b', 'c', 'd'];

  it('moves to the end without a position', () => {
    expect(placeAmong(siblings, 'b', {})).toEqual({ order: ['a', 'c', 'd', 'b'] });
  });

  it('appends a new item', () => {
    expect(placeAmong(siblings, 'e', {})).toEqual({ order: ['a', 'b', 'c', 'd', 'e'] });
  });

  it('places before a sibling', () => {
    expect(placeAmong(siblings, 'd', { before: 'a' })).toEqual({ order: ['d', 'a', 'b', 'c'] });
    expect(placeAmong(siblings, 'a', { before: 'd' })).toEqual({ order: ['b', 'c', 'a', 'd'] });
  });

  it('places after a sibling', () => {
    expect(placeAmong(siblings, 'a', { after: 'd' })).toEqual({ order: ['b', 'c', 'd', 'a'] });
    expect(placeAmong(siblings, 'd', { after: 'a' })).toEqual({ order: ['a', 'd', 'b', 'c'] });
  });

  it('places between two adjacent siblings', () => {
    expect(placeAmong(siblings, 'a', { after: 'b', before: 'c' })).toEqual({
      order: ['b', 'a', 'c', 'd'],
    });
    // Adjacent once the moved item is out of the way.
    expect(placeAmong(siblings, 'b', { after: 'a', before: 'c' })).toEqual({
      order: ['a', 'b', 'c', 'd'],
    });
  });

  it('refuses siblings that are not adjacent', () => {
    expect(placeAmong(siblings, 'a', { after: 'b', before: 'd' })).toEqual({
      problem: 'not-adjacent',
    });
    expect(placeAmong(siblings, 'a', { after: 'c', before: 'b' })).toEqual({
      problem: 'not-adjacent',
    });
  });

  it('refuses a pointer that is not a sibling, or the item itself', () => {
    expect(placeAmong(siblings, 'a', { before: 'x' })).toEqual({
      problem: 'not-a-sibling',
      which: 'before',
    });
    expect(placeAmong(siblings, 'a', { after: 'a' })).toEqual({
      problem: 'not-a-sibling',
      which: 'after',
    });
  });
});
