import jsep from 'jsep';

/**
 * Conditions of site spaces and sections: JavaScript-like expressions over the visitor's claims
 * that decide whether a visitor sees the content, as GitBook writes them
 * (`visitor.claims.isBeta === true`, `visitor.claims.unsigned.plan === "pro"`,
 * `visitor.claims.products.includes("api")`). Parsed with jsep, then checked against what a
 * condition may contain:
 *
 * - roots: `visitor`, read through `visitor.claims` (the signed claims, with `unsigned` for the
 *   unsigned ones), and literals (strings, numbers, `true`, `false`, `null`, `undefined`,
 *   arrays of those);
 * - operators: `===`, `!==`, `==`, `!=`, `<`, `<=`, `>`, `>=`, `&&`, `||`, `??`, `!`, unary `-`,
 *   the ternary `a ? b : c`, and parentheses;
 * - calls: only the string and array methods in {@link CONDITION_METHODS}, on a claim or a
 *   literal (`["a", "b"].includes(visitor.claims.role)`).
 *
 * Anything else (other identifiers, `this`, assignments, several statements, arbitrary calls) is
 * refused, so a condition can always be evaluated safely against a visitor's claims.
 */

/** Methods a condition may call. */
export const CONDITION_METHODS = [
  'includes',
  'startsWith',
  'endsWith',
  'indexOf',
  'toLowerCase',
  'toUpperCase',
  'trim',
] as const;

const BINARY_OPERATORS = new Set([
  '===',
  '!==',
  '==',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  '&&',
  '||',
  '??',
]);
const UNARY_OPERATORS = new Set(['!', '-']);
const LITERAL_IDENTIFIERS = new Set(['undefined']);
const METHODS = new Set<string>(CONDITION_METHODS);

class ConditionProblem extends Error {}

/**
 * Why `expression` is not a valid condition, or null when it is one. The length limit
 * (1024) is the caller's check.
 */
export function conditionProblem(expression: string): string | null {
  if (expression.trim() === '') return 'A condition cannot be empty.';
  let tree: jsep.Expression;
  try {
    tree = jsep(expression);
  } catch (error) {
    return `The condition is not a valid expression: ${(error as Error).message}.`;
  }
  try {
    check(tree);
    return null;
  } catch (error) {
    if (error instanceof ConditionProblem) return error.message;
    throw error;
  }
}

function check(node: jsep.Expression): void {
  switch (node.type) {
    case 'Literal':
      return;
    case 'Identifier':
      if (LITERAL_IDENTIFIERS.has(identifierName(node))) return;
      if (identifierName(node) === 'visitor') return;
      throw new ConditionProblem(
        `Unknown name "${identifierName(node)}" in the condition: read the visitor's claims through visitor.claims.`,
      );
    case 'ArrayExpression':
      for (const element of (node as jsep.ArrayExpression).elements) {
        if (element) check(element);
      }
      return;
    case 'MemberExpression':
      return checkMember(node as jsep.MemberExpression);
    case 'CallExpression':
      return checkCall(node as jsep.CallExpression);
    case 'BinaryExpression': {
      const binary = node as jsep.BinaryExpression;
      if (!BINARY_OPERATORS.has(binary.operator)) {
        throw new ConditionProblem(
          `The operator "${binary.operator}" is not allowed in a condition.`,
        );
      }
      check(binary.left);
      check(binary.right);
      return;
    }
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      if (!UNARY_OPERATORS.has(unary.operator)) {
        throw new ConditionProblem(
          `The operator "${unary.operator}" is not allowed in a condition.`,
        );
      }
      check(unary.argument);
      return;
    }
    case 'ConditionalExpression': {
      const conditional = node as jsep.ConditionalExpression;
      check(conditional.test);
      check(conditional.consequent);
      check(conditional.alternate);
      return;
    }
    case 'Compound':
      throw new ConditionProblem('A condition is a single expression.');
    default:
      throw new ConditionProblem(`A condition cannot contain a ${describe(node.type)}.`);
  }
}

/** `visitor.claims...`, a property of a literal or claim (`.length`), or `x["key"]`. */
function checkMember(member: jsep.MemberExpression): void {
  if (member.computed) {
    // visitor.claims["my-claim"], list[0]: the key must be a literal.
    if (member.property.type !== 'Literal') {
      throw new ConditionProblem('A computed property in a condition must be a literal.');
    }
  } else if (member.property.type !== 'Identifier') {
    throw new ConditionProblem('Invalid property access in the condition.');
  }
  if (member.object.type === 'Identifier' && identifierName(member.object) === 'visitor') {
    const property = propertyName(member);
    if (property !== 'claims') {
      throw new ConditionProblem(
        `Unknown visitor attribute "${String(property)}": conditions read visitor.claims.`,
      );
    }
    return;
  }
  check(member.object);
}

function checkCall(call: jsep.CallExpression): void {
  const callee = call.callee;
  if (callee.type !== 'MemberExpression') {
    throw new ConditionProblem(
      `Only the methods ${CONDITION_METHODS.join(', ')} can be called in a condition.`,
    );
  }
  const member = callee as jsep.MemberExpression;
  const method = propertyName(member);
  if (member.computed || typeof method !== 'string' || !METHODS.has(method)) {
    throw new ConditionProblem(
      `The method "${String(method)}" is not allowed in a condition (allowed: ${CONDITION_METHODS.join(', ')}).`,
    );
  }
  if (member.object.type === 'Identifier' && identifierName(member.object) === 'visitor') {
    throw new ConditionProblem('Methods are called on claims (visitor.claims.x), not on visitor.');
  }
  check(member.object);
  for (const argument of call.arguments) check(argument);
}

function identifierName(node: jsep.Expression): string {
  return (node as jsep.Identifier).name;
}

function propertyName(member: jsep.MemberExpression): unknown {
  return member.property.type === 'Identifier'
    ? identifierName(member.property)
    : (member.property as jsep.Literal).value;
}

function describe(type: string): string {
  switch (type) {
    case 'ThisExpression':
      return '"this"';
    default:
      return type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  }
}
