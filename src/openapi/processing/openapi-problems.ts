import type {
  OpenAPIProcessErrorCode,
  OpenAPIProcessProblem,
} from '../entities/openapi-spec.entity';

/** Kinds of problem listed in `lastProcessedErrors[].code`. */
export type ProblemCode =
  | 'FETCH_TIMEOUT'
  | 'FETCH_ERROR'
  | 'SYNTAX_ERROR'
  | 'UNSUPPORTED_DOCUMENT'
  | 'INVALID_REFERENCE'
  | 'INVALID_DOCUMENT';

export interface Problem extends OpenAPIProcessProblem {
  code: ProblemCode;
}

/** At most this many problems are kept: the first ones say what to fix. */
export const MAX_PROBLEMS = 50;

/** A processing failed: what to record on the specification. */
export class ProcessingFailure extends Error {
  constructor(readonly problems: Problem[]) {
    super(problems.map((problem) => problem.message).join('; '));
    this.name = 'ProcessingFailure';
  }

  /** The specification's `lastProcessErrorCode`: a fetch that timed out or failed, else parsing. */
  get errorCode(): OpenAPIProcessErrorCode {
    if (this.problems.some((problem) => problem.code === 'FETCH_TIMEOUT')) return 'FETCH_TIMEOUT';
    if (this.problems.some((problem) => problem.code === 'FETCH_ERROR')) return 'FETCH_ERROR';
    return 'PARSE_ERROR';
  }
}

export function problem(code: ProblemCode, message: string): Problem {
  return { code, message };
}

export function fail(code: ProblemCode, message: string): ProcessingFailure {
  return new ProcessingFailure([problem(code, message)]);
}

/** A JSON pointer (`#/paths/~1pets/get`) of path segments. */
export function pointer(segments: readonly (string | number)[]): string {
  return `#/${segments.map((s) => String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}
