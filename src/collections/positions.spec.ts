import { lastPosition, placeAmong, POSITION_GAP } from './positions';

const siblings = (...positions: number[]) =>
  positions.map((position, i) => ({ id: String.fromCharCode(97 + i), position }));

describe('lastPosition', () => {
  it('starts at one gap and appends one gap after the highest', () => {
    expect(lastPosition([])).toBe(POSITION_GAP);
    expect(lastPosition(siblings(1024, 5000, 2048))).toBe(5000 + POSITION_GAP);
  });
});

describe('placeAmong', () => {
  it('appends at the end without an anchor', () => {
    expect(placeAmong(siblings(1024, 2048), {})).toEqual({
      ok: true,
      position: 3072,
      index: 2,
      renumbered: [],
    });
  });

  it('places at the midpoint between the neighbours', () => {
    expect(placeAmong(siblings(1024, 2048), { before: 'b' })).toMatchObject({ position: 1536 });
    expect(placeAmong(siblings(1024, 2048), { after: 'a' })).toMatchObject({ position: 1536 });
    expect(placeAmong(siblings(1024, 2048), { after: 'a', before: 'b' })).toMatchObject({
      position: 1536,
    });
  });

  it('places before the first and after the last one gap away', () => {
    expect(placeAmong(siblings(1024, 2048), { before: 'a' })).toMatchObject({
      position: 0,
      index: 0,
    });
    expect(placeAmong(siblings(1024, 2048), { after: 'b' })).toMatchObject({ position: 3072 });
  });

  it('renumbers every sibling when no integer is left between the neighbours', () => {
    expect(placeAmong(siblings(1, 2, 3), { after: 'a' })).toEqual({
      ok: true,
      position: 2048,
      index: 1,
      renumbered: [
        { id: 'a', position: 1024 },
        { id: 'b', position: 3072 },
        { id: 'c', position: 4096 },
      ],
    });
  });

  it('refuses an anchor that is not a sibling, or before/after that are not adjacent', () => {
    expect(placeAmong(siblings(1024), { before: 'z' })).toEqual({ ok: false, reason: 'before' });
    expect(placeAmong(siblings(1024), { after: 'z' })).toEqual({ ok: false, reason: 'after' });
    expect(placeAmong(siblings(1024, 2048, 3072), { after: 'a', before: 'c' })).toEqual({
      ok: false,
      reason: 'adjacent',
    });
  });
});
