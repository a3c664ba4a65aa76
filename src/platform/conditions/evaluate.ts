import jsep from 'jsep';
import { LRUCache } from 'lru-cache';
import { CONDITION_METHODS, conditionProblem } from './condition';

/**
 * What a condition sees of a visitor: `visitor.claims` holds the signed claims (from a visitor
 * token the site's key verified) and, under `unsigned`, the claims the visitor sent unsigned.
 */
export interface VisitorClaims {
  claims: Record<string, unknown> & { unsigned: Record<string, unknown> };
}

const METHODS = new Set<string>(CONDITION_METHODS);
/** Keys a condition may never read, whatever the object: no way to reach prototypes. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'prototype', 'constructor']);

/** Parsed conditions, by text: a site evaluates the same few on every lookup. */
const parsed = new LRUCache<string, { tree: jsep.Expression | null }>({ max: 2000 });

/**
 * Whether `visitor` meets `condition`. The condition is checked as on write (only claims,
 * literals, the allowed operators and methods), then evaluated over plain data: properties are
 * read only from objects, arrays and strings that the claims hold, never from prototypes, and
 * only the allowed methods run. A condition that is invalid, or that throws (a method of a
 * missing claim), hides the content: a visitor sees what a condition opens to it, nothing by
 * accident.
 */
export function meetsCondition(condition: string | null, visitor: VisitorClaims): boolean {
  if (condition === null) return true;
  const tree = parse(condition);
  if (!tree) return false;
  try {
    return Boolean(evaluate(tree, visitor));
  } catch {
    return false;
  }
}

function parse(condition: string): jsep.Expression | null {
  const cached = parsed.get(condition);
  if (cached) return cached.tree;
  const tree = conditionProblem(condition) === null ? jsep(condition) : null;
  parsed.set(condition, { tree });
  return tree;
}

class Refused extends Error {}

function evaluate(node: jsep.Expression, visitor: VisitorClaims): unknown {
  switch (node.type) {
    case 'Literal':
      return (node as jsep.Literal).value;
    case 'Identifier': {
      const name = (node as jsep.Identifier).name;
      if (name === 'undefined') return undefined;
      if (name === 'visitor') return visitor;
      throw new Refused(name);
    }
    case 'ArrayExpression':
      return (node as jsep.ArrayExpression).elements.map((element) =>
        element ? evaluate(element, visitor) : undefined,
      );
    case 'MemberExpression': {
      const member = node as jsep.MemberExpression;
      return property(evaluate(member.object, visitor), key(member, visitor));
    }
    case 'CallExpression':
      return call(node as jsep.CallExpression, visitor);
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      const value = evaluate(unary.argument, visitor);
      if (unary.operator === '!') return !value;
      if (unary.operator === '-') return -(value as number);
      throw new Refused(unary.operator);
    }
    case 'BinaryExpression':
      return binary(node as jsep.BinaryExpression, visitor);
    case 'ConditionalExpression': {
      const conditional = node as jsep.ConditionalExpression;
      return evaluate(conditional.test, visitor)
        ? evaluate(conditional.consequent, visitor)
        : evaluate(conditional.alternate, visitor);
    }
    default:
      throw new Refused(node.type);
  }
}

function key(member: jsep.MemberExpression, visitor: VisitorClaims): string | number {
  const value = member.computed
    ? evaluate(member.property, visitor)
    : (member.property as jsep.Identifier).name;
  if (typeof value !== 'string' && typeof value !== 'number') throw new Refused('key');
  return value;
}

/** A property of plain data: own keys of objects and arrays, `length`, never a prototype's. */
function property(target: unknown, name: string | number): unknown {
  if (typeof name === 'string' && FORBIDDEN_KEYS.has(name)) return undefined;
  if (typeof target === 'string' || Array.isArray(target)) {
    if (name === 'length') return target.length;
    return typeof name === 'number' || /^\d+$/.test(name) ? target[Number(name)] : undefined;
  }
  if (target !== null && typeof target === 'object') {
    return Object.prototype.hasOwnProperty.call(target, name)
      ? (target as Record<string, unknown>)[name]
      : undefined;
  }
  return undefined;
}

function call(node: jsep.CallExpression, visitor: VisitorClaims): unknown {
  const callee = node.callee as jsep.MemberExpression;
  const method = (callee.property as jsep.Identifier).name;
  if (!METHODS.has(method)) throw new Refused(method);
  const target = evaluate(callee.object, visitor);
  if (typeof target !== 'string' && !Array.isArray(target)) throw new Refused('call');
  if (
    (method === 'toLowerCase' || method === 'toUpperCase' || method === 'trim') &&
    !isString(target)
  )
    throw new Refused(method);
  const args = node.arguments.map((argument) => evaluate(argument, visitor));
  const fn = (target as unknown as Record<string, (...values: unknown[]) => unknown>)[method];
  return fn.apply(target, args);
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function binary(node: jsep.BinaryExpression, visitor: VisitorClaims): unknown {
  const left = () => evaluate(node.left, visitor);
  const right = () => evaluate(node.right, visitor);
  switch (node.operator) {
    case '&&':
      return left() && right();
    case '||':
      return left() || right();
    case '??':
      return left() ?? right();
  }
  const a = left() as number;
  const b = right() as number;
  switch (node.operator) {
    case '===':
      return a === b;
    case '!==':
      return a !== b;
    case '==':
      return a == b;
    case '!=':
      return a != b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    default:
      throw new Refused(node.operator);
  }
}
