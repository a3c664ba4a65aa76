import type { NextFunction, Request, Response } from 'express';
import { invalidInput } from '../errors/domain-error';

/** Deep enough for any rich document, far below what recursive validation can walk. */
export const MAX_BODY_DEPTH = 256;

/**
 * Refuses JSON bodies nested deeper than MAX_BODY_DEPTH with a 400, before class-transformer
 * (which recurses) would exhaust the stack on them and answer 500.
 */
export function rejectDeepBodies(request: Request, _response: Response, next: NextFunction): void {
  next(
    depthOf(request.body) > MAX_BODY_DEPTH
      ? invalidInput(`The request body is nested deeper than ${MAX_BODY_DEPTH} levels.`)
      : undefined,
  );
}

/** Iterative, so that the check itself cannot overflow the stack. */
export function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (current === null || typeof current !== 'object') continue;
    if (depth > deepest) deepest = depth;
    if (deepest > MAX_BODY_DEPTH) return deepest;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return deepest;
}
