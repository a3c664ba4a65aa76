import { meetsCondition, type VisitorClaims } from './evaluate';

const visitor = (
  signed: Record<string, unknown>,
  unsigned: Record<string, unknown> = {},
): VisitorClaims => ({ claims: { ...signed, unsigned } });

describe('meetsCondition', () => {
  it('opens content without a condition to everyone', () => {
    expect(meetsCondition(null, visitor({}))).toBe(true);
  });

  it('reads signed and unsigned claims', () => {
    expect(meetsCondition('visitor.claims.isBeta === true', visitor({ isBeta: true }))).toBe(true);
    expect(meetsCondition('visitor.claims.isBeta === true', visitor({ isBeta: 'true' }))).toBe(
      false,
    );
    expect(
      meetsCondition('visitor.claims.unsigned.plan === "pro"', visitor({}, { plan: 'pro' })),
    ).toBe(true);
    expect(meetsCondition('visitor.claims.unsigned.plan === "pro"', visitor({ plan: 'pro' }))).toBe(
      false,
    );
  });

  it('evaluates the allowed operators and methods', () => {
    const claims = visitor({ products: ['api', 'cli'], email: ' Ann@Example.com ', seats: 12 });
    expect(meetsCondition('visitor.claims.products.includes("api")', claims)).toBe(true);
    expect(meetsCondition('["a", "b"].includes(visitor.claims.role)', claims)).toBe(false);
    expect(
      meetsCondition('visitor.claims.email.trim().toLowerCase().endsWith("@example.com")', claims),
    ).toBe(true);
    expect(meetsCondition('visitor.claims.seats >= 10 && !visitor.claims.trial', claims)).toBe(
      true,
    );
    expect(meetsCondition('(visitor.claims.tier ?? "free") === "free"', claims)).toBe(true);
    expect(meetsCondition('visitor.claims.products.length > 1 ? true : false', claims)).toBe(true);
    expect(meetsCondition('visitor.claims["products"][1] === "cli"', claims)).toBe(true);
  });

  it('hides content when the condition throws or is invalid', () => {
    expect(meetsCondition('visitor.claims.missing.includes("x")', visitor({}))).toBe(false);
    expect(meetsCondition('visitor.claims.n.toLowerCase() === "1"', visitor({ n: [1] }))).toBe(
      false,
    );
    expect(meetsCondition('process.exit(1)', visitor({}))).toBe(false);
    expect(meetsCondition('visitor.claims = 1', visitor({}))).toBe(false);
  });

  it('never reaches prototypes', () => {
    expect(meetsCondition('visitor.claims.constructor !== undefined', visitor({}))).toBe(false);
    expect(meetsCondition('visitor.claims.__proto__ !== undefined', visitor({}))).toBe(false);
    expect(meetsCondition('visitor.claims.toString !== undefined', visitor({}))).toBe(false);
    expect(
      meetsCondition('visitor.claims.list.includes.call === undefined', visitor({ list: [] })),
    ).toBe(true);
  });
});
