import type { RequestHandler } from 'express';
import { fixedHeadersOf, securityHeaders } from './browser-edge';

describe('fixedHeadersOf', () => {
  it('reads the headers a middleware sets, once', () => {
    const middleware: RequestHandler = (_request, response, next) => {
      response.setHeader('X-A', 'a');
      response.setHeader('X-B', ['b1', 'b2']);
      response.setHeader('X-C', 3);
      next();
    };
    expect(fixedHeadersOf(middleware)).toEqual([
      ['X-A', 'a'],
      ['X-B', ['b1', 'b2']],
      ['X-C', '3'],
    ]);
  });

  it('refuses a middleware that does not go on at once', () => {
    const later: RequestHandler = (_request, _response, next) => void setImmediate(next);
    expect(() => fixedHeadersOf(later)).toThrow(/not fixed/);
  });

  it("sets helmet's headers on each response", () => {
    const set = new Map<string, unknown>();
    const next = jest.fn();
    securityHeaders()(
      {} as never,
      { setHeader: (name: string, value: unknown) => set.set(name.toLowerCase(), value) } as never,
      next,
    );
    expect(next).toHaveBeenCalled();
    expect(set.get('content-security-policy')).toContain("img-src 'self' data: https:");
    expect(set.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(set.get('x-content-type-options')).toBe('nosniff');
    expect(set.has('strict-transport-security')).toBe(true);
  });
});
