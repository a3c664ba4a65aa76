import { QueryFailedError } from 'typeorm';
import { QueryRunnerAlreadyReleasedError } from 'typeorm/error/QueryRunnerAlreadyReleasedError';
import { QueryRunnerProviderAlreadyReleasedError } from 'typeorm/error/QueryRunnerProviderAlreadyReleasedError';
import {
  isDatabaseUnavailable,
  isReadOnlyStatement,
  timeoutOf,
  wasNeverSent,
} from './connection-faults';

/** What pg raises for an ErrorResponse: an Error with the SQLSTATE in `code`. */
const pgError = (code: string, message = `error ${code}`) =>
  Object.assign(new Error(message), { code });
/** The same error, as TypeORM throws it from a statement. */
const failed = (driverError: Error) => new QueryFailedError('SELECT 1', [], driverError);
const socketError = (code: string) =>
  Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['57P01 terminated by an administrator', failed(pgError('57P01'))],
    ['57P02 crash shutdown', failed(pgError('57P02'))],
    ['57P03 cannot connect now', pgError('57P03')],
    ['08006 connection failure', failed(pgError('08006'))],
    ['08P01 protocol violation', pgError('08P01')],
    ['53300 too many connections', pgError('53300')],
    [
      '55000 not accepting connections',
      pgError('55000', 'database "x" is not currently accepting connections'),
    ],
    ['ECONNREFUSED', socketError('ECONNREFUSED')],
    ['ECONNRESET in a statement', failed(socketError('ECONNRESET'))],
    ['Connection terminated unexpectedly', failed(new Error('Connection terminated unexpectedly'))],
    ['a pool acquisition timeout', new Error('timeout exceeded when trying to connect')],
    [
      'a connection timeout, with its cause',
      new Error('Connection terminated due to connection timeout', {
        cause: socketError('ETIMEDOUT'),
      }),
    ],
    [
      'a dead client',
      failed(new Error('Client has encountered a connection error and is not queryable')),
    ],
    ['a released query runner', new QueryRunnerAlreadyReleasedError()],
    ['a released transaction manager', new QueryRunnerProviderAlreadyReleasedError()],
  ])('is true for %s', (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', failed(pgError('23505'))],
    ['a serialization failure (retried as a conflict)', failed(pgError('40001'))],
    ['55000 for another reason', failed(pgError('55000', 'object not in prerequisite state'))],
    ['a statement timeout', failed(pgError('57014'))],
    ['a programming error', new TypeError("Cannot read properties of undefined (reading 'x')")],
    ['not an error', 'text'],
    ['nothing', undefined],
  ])('is false for %s', (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('wasNeverSent', () => {
  it('is true when no connection could be had, or pg refused the statement on a dead one', () => {
    expect(wasNeverSent(socketError('ECONNREFUSED'))).toBe(true);
    expect(wasNeverSent(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(wasNeverSent(new QueryRunnerAlreadyReleasedError())).toBe(true);
    expect(
      wasNeverSent(
        failed(new Error('Client has encountered a connection error and is not queryable')),
      ),
    ).toBe(true);
  });

  it('is false once the statement may have reached the database, or for other failures', () => {
    expect(wasNeverSent(failed(pgError('57P01')))).toBe(false);
    expect(wasNeverSent(failed(new Error('Connection terminated unexpectedly')))).toBe(false);
    expect(wasNeverSent(failed(socketError('ECONNRESET')))).toBe(false);
    expect(wasNeverSent(failed(pgError('23505')))).toBe(false);
  });
});

describe('isReadOnlyStatement', () => {
  it.each([
    'SELECT 1',
    '  select * from spaces where id = $1',
    '-- a comment\nSELECT 1',
    '/* why */ SELECT 1',
    'WITH RECURSIVE chain AS (SELECT 1) SELECT * FROM chain',
  ])('reads: %s', (sql) => expect(isReadOnlyStatement(sql)).toBe(true));

  it.each([
    'INSERT INTO spaces VALUES (1)',
    'UPDATE spaces SET title = $1',
    'DELETE FROM spaces',
    'WITH moved AS (UPDATE spaces SET x = 1 RETURNING id) SELECT * FROM moved',
    'SELECT * FROM spaces FOR UPDATE',
    "SELECT nextval('ids')",
    'START TRANSACTION',
    'COMMIT',
  ])('does not only read: %s', (sql) => expect(isReadOnlyStatement(sql)).toBe(false));
});

describe('timeoutOf', () => {
  it('tells a statement timeout from a lock timeout', () => {
    expect(timeoutOf(failed(pgError('57014')))).toBe('statement');
    expect(timeoutOf(failed(pgError('55P03')))).toBe('lock');
    expect(timeoutOf(failed(pgError('23505')))).toBeUndefined();
    expect(timeoutOf(new Error('x'))).toBeUndefined();
  });
});
