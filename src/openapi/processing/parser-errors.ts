import { relativePath } from './openapi-documents';
import { pointer, problem, ProcessingFailure, type Problem } from './openapi-problems';

/** One error of Ajv, as Swagger Parser attaches them (`details`) to a failed validation. */
export interface SchemaError {
  instancePath: string;
  keyword: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** One error of JSON Schema $Ref Parser, as its error group lists them. */
interface ReferenceError {
  code?: string;
  message: string;
  source?: string;
  path?: (string | number)[] | null;
}

export interface FailureContext {
  /** URL of the root document (the parser's base). */
  base: URL;
  /** The root document's key in the filesystem. */
  rootKey: string;
  /** What went wrong with each referenced file that could not be read, by its URL. */
  failures: ReadonlyMap<string, Problem>;
}

const COMBINATORS = new Set(['oneOf', 'anyOf', 'if']);

/** The problems behind a failure of Swagger Parser's `validate`, each with its location. */
export function describeParserFailure(error: unknown, context: FailureContext): Problem[] {
  if (error instanceof ProcessingFailure) return error.problems;
  const references = referenceErrors(error);
  if (references) return referenceProblems(references, context);
  const details = (error as { details?: unknown } | null)?.details;
  if (Array.isArray(details) && details.length > 0) {
    return schemaProblems(details as SchemaError[], context.rootKey);
  }
  const message = error instanceof Error ? error.message : String(error);
  return [problem('INVALID_DOCUMENT', `${context.rootKey}: ${message}`)];
}

/**
 * Ajv's errors, less the noise of alternatives: "must have required property '$ref'" (the
 * reference alternative of every object) and the "must match exactly one schema in oneOf" that
 * sums up more precise errors at or under the same place.
 */
export function schemaProblems(errors: SchemaError[], rootKey: string): Problem[] {
  const kept = errors.filter(
    (error) => !(error.keyword === 'required' && error.params?.missingProperty === '$ref'),
  );
  const precise = kept.filter((error) => !COMBINATORS.has(error.keyword));
  const shown = kept.filter(
    (error) =>
      !COMBINATORS.has(error.keyword) ||
      !precise.some((other) => isAtOrUnder(other.instancePath, error.instancePath)),
  );
  const seen = new Set<string>();
  const problems: Problem[] = [];
  for (const error of shown.length > 0 ? shown : errors) {
    const message = `${rootKey}#${error.instancePath}: ${error.message ?? error.keyword}${detail(error)}`;
    if (seen.has(message)) continue;
    seen.add(message);
    problems.push(problem('INVALID_DOCUMENT', message));
  }
  return problems;
}

function isAtOrUnder(path: string, parent: string): boolean {
  return path === parent || path.startsWith(`${parent}/`);
}

function detail(error: SchemaError): string {
  const params = error.params ?? {};
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    return ` ('${params.additionalProperty}')`;
  }
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    return `: ${params.allowedValues.map((value) => JSON.stringify(value)).join(', ')}`;
  }
  return '';
}

/** The errors of a JSON Schema $Ref Parser error group, or null for any other error. */
function referenceErrors(error: unknown): ReferenceError[] | null {
  if (!(error instanceof Error) || error.name !== 'JSONParserErrorGroup') return null;
  const errors = (error as Error & { errors?: unknown }).errors;
  return Array.isArray(errors) ? (errors as ReferenceError[]) : null;
}

/**
 * One problem per broken reference: a file that could not be read says why (fetch, syntax,
 * origin) and where it is referenced; a missing or invalid pointer says where it is.
 */
function referenceProblems(errors: ReferenceError[], context: FailureContext): Problem[] {
  const problems: Problem[] = [];
  const reported = new Set<string>();
  for (const error of errors) {
    const at = location(error, context);
    const failed = [...context.failures.entries()].find(([url]) =>
      error.message.includes(`"${url}"`),
    );
    if (failed) {
      reported.add(failed[0]);
      problems.push({ ...failed[1], message: locate(failed[1].message, 'referenced at', at) });
    } else {
      problems.push(problem('INVALID_REFERENCE', locate(error.message, 'at', at)));
    }
  }
  for (const [url, failure] of context.failures) {
    if (!reported.has(url)) problems.push(failure);
  }
  return problems;
}

/** "Something is wrong (referenced at openapi.yaml#/paths/...)." */
function locate(message: string, preposition: string, at: string | null): string {
  return at === null ? message : `${message.replace(/\.$/, '')} (${preposition} ${at}).`;
}

/** `openapi.yaml#/paths/~1pets/get/responses/200`: the file (by its key) and the JSON pointer. */
function location(error: ReferenceError, context: FailureContext): string | null {
  if (!error.source) return null;
  let file: string;
  try {
    const source = new URL(error.source);
    file = source.href === context.base.href ? context.rootKey : relativePath(context.base, source);
  } catch {
    file = context.rootKey;
  }
  return `${file}${pointer(error.path ?? [])}`;
}
