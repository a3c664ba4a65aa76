import { DomainError } from '../errors/domain-error';
import { decodeCursor, encodeCursor } from './keyset';

const FINGERPRINT = 'a1b2c3d4';

/** Runs `fn`, expecting the DomainError of a bad page identifier, and returns it. */
function badRequest(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    const domainError = error as DomainError;
    expect(domainError.kind).toBe('bad_request');
    expect(domainError.code).toBe('InvalidInput');
    expect(domainError.message).toBe('page is not a valid page identifier for this list.');
    return domainError;
  }
  throw new Error('expected a DomainError, but nothing was thrown');
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('encodeCursor / decodeCursor', () => {
  it('round-trips strings, numbers, booleans and null', () => {
    const values = ['Getting started', 42, -1.5, true, false, null, 'id_-AZaz09'];
    const cursor = encodeCursor(values, FINGERPRINT);
    expect(decodeCursor(cursor, FINGERPRINT, values.length)).toEqual(values);
  });

  it('turns dates into ISO strings', () => {
    const createdAt = new Date('2024-05-06T07:08:09.123Z');
    const cursor = encodeCursor([createdAt, 'abc'], FINGERPRINT);
    expect(decodeCursor(cursor, FINGERPRINT, 2)).toEqual(['2024-05-06T07:08:09.123Z', 'abc']);
  });

  it('round-trips non-ASCII text', () => {
    const cursor = encodeCursor(['Übersicht — 概要 🚀'], FINGERPRINT);
    expect(decodeCursor(cursor, FINGERPRINT, 1)).toEqual(['Übersicht — 概要 🚀']);
  });

  it('produces url-safe cursors', () => {
    // Characters chosen so that standard base64 would contain '+' and '/'.
    const cursor = encodeCursor(['>>>???~~~', new Date(0)], FINGERPRINT);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('is deterministic', () => {
    expect(encodeCursor(['x', 1], FINGERPRINT)).toBe(encodeCursor(['x', 1], FINGERPRINT));
    expect(encodeCursor(['x', 1], FINGERPRINT)).not.toBe(encodeCursor(['x', 2], FINGERPRINT));
  });

  it('rejects a cursor of another list (wrong fingerprint)', () => {
    const cursor = encodeCursor(['x', 1], FINGERPRINT);
    badRequest(() => decodeCursor(cursor, 'ffffffff', 2));
  });

  it.each([1, 3, 0])('rejects a cursor with the wrong number of keys (expecting %i)', (count) => {
    const cursor = encodeCursor(['x', 1], FINGERPRINT);
    badRequest(() => decodeCursor(cursor, FINGERPRINT, count));
  });

  it.each([
    ['an empty string', ''],
    ['garbage', 'garbage'],
    ['non-base64 characters', '!!!@@@###'],
    ['standard base64 of garbage', Buffer.from('not json at all').toString('base64')],
    ['truncated cursor', encodeCursor(['x', 1], FINGERPRINT).slice(0, 10)],
    ['JSON null', base64url(null)],
    ['a JSON number', base64url(5)],
    ['a JSON string', base64url(FINGERPRINT)],
    ['a JSON object', base64url({ 0: FINGERPRINT, 1: ['x', 1] })],
    ['values that are not an array', base64url([FINGERPRINT, 'x1'])],
    ['values missing', base64url([FINGERPRINT])],
    ['an empty array', base64url([])],
  ])('rejects %s', (_label, cursor) => {
    badRequest(() => decodeCursor(cursor, FINGERPRINT, 2));
  });

  // A forged cursor must not smuggle objects or arrays into the SQL row comparison.
  it.each([
    ['an object', [{ $gt: '' }, 'x']],
    ['a nested array', [['a', 'b'], 'x']],
  ])('rejects a cursor whose values include %s', (_label, values) => {
    badRequest(() => decodeCursor(base64url([FINGERPRINT, values]), FINGERPRINT, 2));
  });
});
