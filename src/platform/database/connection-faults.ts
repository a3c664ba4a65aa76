import { QueryFailedError } from 'typeorm';

/**
 * How a failed database call tells that the database was not there, as opposed to a statement
 * that the database refused: the connection was lost (terminated by an administrator, a
 * failover, a pooler restart, a reaper), could not be made (refused, too many connections, a
 * database not accepting connections) or could not be had in time (the pool's acquisition
 * timeout). Such failures are answered 503 with Retry-After, never 500, and are what a read
 * retries on a fresh connection.
 */

/**
 * SQLSTATEs of a database that is not there for this connection: class 08 (connection
 * exception), 57P01–57P03 (terminated by an administrator, a crash shutdown, cannot connect
 * now: starting or shutting down), 53300 (too many connections).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** 55000 is "object not in prerequisite state": only this one of its messages is ours. */
const NOT_ACCEPTING_CONNECTIONS = /is not currently accepting connections/;

/** Socket errors of a connection to the database that failed or was cut. */
const SOCKET_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** What `pg` and `pg-pool` say when a connection ended or could not be had. */
const LOST_MESSAGES = [
  /^Connection terminated/, // unexpectedly, or due to connection timeout
  /^timeout exceeded when trying to connect$/, // pool acquisition timeout
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
  /^Connection closed$/, // the embedded server dropped the connection's queued messages
];

/** What `pg` says of a statement on a connection already known dead: it was never sent. */
const NOT_SENT_MESSAGES = [
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
];

/**
 * TypeORM's errors for a query runner that its connection's failure released (a statement of
 * a transaction after the connection died): the connection, not the statement, failed.
 */
const RELEASED_RUNNER_ERRORS = new Set([
  'QueryRunnerAlreadyReleasedError',
  'QueryRunnerProviderAlreadyReleasedError',
]);

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  driverError?: unknown;
}

/** The error the driver raised: TypeORM wraps it in a QueryFailedError (`driverError`). */
function driverErrorOf(error: unknown): ErrorLike | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { driverError } = error as ErrorLike;
  return typeof driverError === 'object' && driverError !== null
    ? (driverError as ErrorLike)
    : (error as ErrorLike);
}

function messageMatches(error: ErrorLike, patterns: RegExp[]): boolean {
  return (
    typeof error.message === 'string' &&
    patterns.some((pattern) => pattern.test(error.message as string))
  );
}

/** Whether `error` says the database was not there (see the top of this file). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const cause = driverErrorOf(error);
  if (!cause) return false;
  if (typeof cause.name === 'string' && RELEASED_RUNNER_ERRORS.has(cause.name)) return true;
  const code = typeof cause.code === 'string' ? cause.code : undefined;
  if (code) {
    if (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code) || SOCKET_ERRORS.has(code)) {
      return true;
    }
    if (code === '55000') return messageMatches(cause, [NOT_ACCEPTING_CONNECTIONS]);
  }
  if (messageMatches(cause, LOST_MESSAGES)) return true;
  // "Connection terminated due to connection timeout" keeps the socket's error as its cause.
  return cause.cause !== undefined && cause.cause !== error && isDatabaseUnavailable(cause.cause);
}

/**
 * Whether the statement that failed with `error` provably never reached the database: the
 * connection could not be had (the runner's `connect`, which TypeORM does not wrap in a
 * QueryFailedError, or a released runner), or `pg` refused it on a connection already dead.
 * Such a statement may be sent again, a write as much as a read.
 */
export function wasNeverSent(error: unknown): boolean {
  if (!isDatabaseUnavailable(error)) return false;
  if (!(error instanceof QueryFailedError)) return true;
  const cause = driverErrorOf(error);
  return cause !== undefined && messageMatches(cause, NOT_SENT_MESSAGES);
}

/**
 * Whether `sql` only reads, so that running it twice changes nothing: a SELECT, or a WITH whose
 * parts are selects. Conservative on purpose: a statement that mentions a data-modifying
 * keyword anywhere (even in a string) is taken for a write and not retried after it was sent.
 */
export function isReadOnlyStatement(sql: string): boolean {
  const text = sql.replace(/^(\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)+/, '');
  if (!/^(SELECT|WITH)\b/i.test(text)) return false;
  return !/\b(INSERT|UPDATE|DELETE|MERGE|TRUNCATE|NEXTVAL|SETVAL)\b/i.test(text);
}

/** SQLSTATEs of a statement that waited past a limit Bindery sets (see data-source-options). */
const STATEMENT_TIMEOUT = '57014'; // query_canceled: statement_timeout (or a cancel request)
const LOCK_TIMEOUT = '55P03'; // lock_not_available: lock_timeout, or NOWAIT

/** Which limit a failed statement ran into, if any. */
export function timeoutOf(error: unknown): 'statement' | 'lock' | undefined {
  const code = driverErrorOf(error)?.code;
  if (code === STATEMENT_TIMEOUT) return 'statement';
  if (code === LOCK_TIMEOUT) return 'lock';
  return undefined;
}
