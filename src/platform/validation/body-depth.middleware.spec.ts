import { depthOf, MAX_BODY_DEPTH, rejectDeepBodies } from './body-depth.middleware';

function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = i % 2 ? { child: value } : [value];
  return value;
}

describe('body depth', () => {
  it.each([
    [undefined, 0],
    ['text', 0],
    [{}, 1],
    [{ a: [1, { b: 2 }] }, 3],
  ])('measures %j as %d levels', (value, depth) => {
    expect(depthOf(value)).toBe(depth);
  });

  it('measures a very deep value without overflowing the stack', () => {
    expect(depthOf(nested(100_000))).toBeGreaterThan(MAX_BODY_DEPTH);
  });

  it('lets a body at the limit through and refuses one past it with a 400', () => {
    const next = jest.fn();
    rejectDeepBodies({ body: nested(MAX_BODY_DEPTH) } as never, {} as never, next);
    expect(next).toHaveBeenLastCalledWith(undefined);
    rejectDeepBodies({ body: nested(MAX_BODY_DEPTH + 1) } as never, {} as never, next);
    expect(next.mock.lastCall?.[0]).toMatchObject({ kind: 'bad_request' });
  });
});
