import type { VisitorClaims } from './evaluate';
import { visitorSeesPage, withPageCondition } from './page-visibility';

const visitor = (claims: Record<string, unknown>): VisitorClaims =>
  ({ claims: { unsigned: {}, ...claims } }) as VisitorClaims;

describe('visitorSeesPage', () => {
  const beta = 'visitor.claims.beta === true';
  const staff = 'visitor.claims.staff === true';

  it('shows a page only to a visitor meeting its condition and every ancestor’s', () => {
    expect(visitorSeesPage([], visitor({}))).toBe(true);
    expect(visitorSeesPage([beta], visitor({}))).toBe(false);
    expect(visitorSeesPage([beta], visitor({ beta: true }))).toBe(true);
    expect(visitorSeesPage([beta, staff], visitor({ beta: true }))).toBe(false);
    expect(visitorSeesPage([beta, staff], visitor({ beta: true, staff: true }))).toBe(true);
  });

  it('shows every page to a caller that is no site visitor', () => {
    expect(visitorSeesPage([beta, 'not a condition ('], undefined)).toBe(true);
  });

  it('hides a page whose condition is invalid', () => {
    expect(visitorSeesPage(['process.exit()'], visitor({ beta: true }))).toBe(false);
  });
});

describe('withPageCondition', () => {
  it('adds the page’s own condition after its ancestors’, and no empty one', () => {
    expect(withPageCondition(['a'], { condition: 'b' })).toEqual(['a', 'b']);
    expect(withPageCondition(['a'], { condition: '' })).toEqual(['a']);
    expect(withPageCondition([], { title: 'x' })).toEqual([]);
  });
});
