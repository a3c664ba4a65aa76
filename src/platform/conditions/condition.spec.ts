import { conditionProblem } from './condition';

describe('conditionProblem', () => {
  it.each([
    'visitor.claims.isBeta === true',
    'visitor.claims.isBeta',
    '!visitor.claims.isBeta',
    'visitor.claims.unsigned.plan === "pro" && visitor.claims.unsigned.seats >= 10',
    "visitor.claims.products.includes('api') || visitor.claims.role !== 'guest'",
    '["eu", "us"].includes(visitor.claims.region)',
    'visitor.claims["feature-flag"] == null',
    'visitor.claims.email.toLowerCase().endsWith("@example.com")',
    'visitor.claims.tags.length > 0',
    'visitor.claims.count === undefined ? false : visitor.claims.count > -1',
    '(visitor.claims.a ?? false)',
  ])('accepts %s', (expression) => {
    expect(conditionProblem(expression)).toBeNull();
  });

  it.each([
    ['', /empty/],
    ['   ', /empty/],
    ['visitor.claims.isBeta ===', /not a valid expression/],
    ['visitor.claims.(', /not a valid expression/],
    ['user.isBeta', /Unknown name "user"/],
    ['window.location', /Unknown name "window"/],
    ['visitor.cookies.x === "1"', /Unknown visitor attribute "cookies"/],
    ['visitor.claims.a = 1', /not a valid expression|not allowed/],
    ['visitor.claims.a; visitor.claims.b', /single expression/],
    ['this.x', /"this"/],
    ['alert(1)', /Only the methods/],
    ['visitor.claims.constructor.constructor("x")()', /Only the methods|not allowed/],
    ['visitor.claims.x.map(1)', /"map" is not allowed/],
    ['visitor.claims[visitor.claims.key]', /computed property/],
    ['visitor.claims.a | 1', /operator "\|"/],
    ['~visitor.claims.a', /operator "~"/],
  ])('refuses %p', (expression, message) => {
    expect(conditionProblem(expression)).toMatch(message);
  });
});
