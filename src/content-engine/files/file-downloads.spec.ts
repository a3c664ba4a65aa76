import { Clock } from '../../platform/clock/clock';
import type { DomainError } from '../../platform/errors/domain-error';
import { SecretKeyring, type InstanceSecret } from '../../platform/settings/instance-secret';
import type { UrlBuilder } from '../../platform/urls/url-builder';
import { DOWNLOAD_URL_TTL_SECONDS, FileDownloads, type DownloadQuery } from './file-downloads';

class MovableClock extends Clock {
  time = Date.parse('2025-01-01T00:00:00Z');
  override now(): Date {
    return new Date(this.time);
  }
}

const BLOB = 'ab'.repeat(32);
const urls = {
  api: (...segments: string[]) => `https://api.test/v1/${segments.join('/')}`,
} as UrlBuilder;
const secretOf = (value: string) => new SecretKeyring(value) as unknown as InstanceSecret;

function parse(url: string): { path: string; query: DownloadQuery } {
  const parsed = new URL(url);
  return {
    path: parsed.pathname,
    query: Object.fromEntries(parsed.searchParams) as DownloadQuery,
  };
}

function errorOf(action: () => unknown): DomainError {
  try {
    action();
  } catch (error) {
    return error as DomainError;
  }
  throw new Error('expected an error');
}

describe('FileDownloads', () => {
  let clock: MovableClock;
  let downloads: FileDownloads;
  const file = { blob: BLOB, name: 'Résumé "final".pdf', contentType: 'application/pdf' };

  beforeEach(() => {
    clock = new MovableClock();
    downloads = new FileDownloads(secretOf('s3cret'), clock, urls);
  });

  it('signs a URL for the blob that verifies until it expires, one hour later', () => {
    const { path, query } = parse(downloads.url(file));
    expect(path).toBe(`/v1/files/sha256/${BLOB}`);
    expect(query).toMatchObject({ name: file.name, type: 'application/pdf' });
    expect(Number(query.expires)).toBe(clock.time / 1000 + DOWNLOAD_URL_TTL_SECONDS);

    expect(downloads.verify(`sha256/${BLOB}`, query)).toEqual({
      blobKey: `sha256/${BLOB}`,
      name: file.name,
      contentType: 'application/pdf',
      expires: Number(query.expires),
      remainingSeconds: 3600,
    });
    clock.time += 3599_000;
    expect(downloads.verify(`sha256/${BLOB}`, query).remainingSeconds).toBe(1);
    clock.time += 1000;
    const error = errorOf(() => downloads.verify(`sha256/${BLOB}`, query));
    expect([error.kind, error.code]).toEqual(['forbidden', 'DownloadURLExpired']);
  });

  it.each<[string, (query: DownloadQuery) => DownloadQuery]>([
    ['the name', (q) => ({ ...q, name: 'other.pdf' })],
    ['the content type', (q) => ({ ...q, type: 'text/html' })],
    ['the expiry', (q) => ({ ...q, expires: String(Number(q.expires) + 3600) })],
    ['the signature', (q) => ({ ...q, signature: `${q.signature!.slice(0, -2)}AA` })],
    ['a shorter signature', (q) => ({ ...q, signature: q.signature!.slice(1) })],
    ['a missing signature', ({ signature: _s, ...q }) => q],
    ['a missing expiry', ({ expires: _e, ...q }) => q],
    ['a non-numeric expiry', (q) => ({ ...q, expires: `${q.expires}.0` })],
  ])('refuses a URL with %s changed', (_, tamper) => {
    const { query } = parse(downloads.url(file));
    const error = errorOf(() => downloads.verify(`sha256/${BLOB}`, tamper(query)));
    expect([error.kind, error.code]).toEqual(['forbidden', 'InvalidDownloadSignature']);
  });

  it('refuses a URL for another blob, or signed with another secret', () => {
    const { query } = parse(downloads.url(file));
    expect(() => downloads.verify(`sha256/${'cd'.repeat(32)}`, query)).toThrow(/not valid/);
    const elsewhere = new FileDownloads(secretOf('other'), clock, urls);
    expect(() => elsewhere.verify(`sha256/${BLOB}`, query)).toThrow(/not valid/);
  });

  it('accepts, during a rotation, a URL signed with a previous secret (SECRET_KEY_PREVIOUS)', () => {
    const { query } = parse(downloads.url(file));
    const rotated = new FileDownloads(
      new SecretKeyring('n3w', ['s3cret']) as unknown as InstanceSecret,
      clock,
      urls,
    );
    expect(rotated.verify(`sha256/${BLOB}`, query).blobKey).toBe(`sha256/${BLOB}`);
    // What the rotated instance signs, only the new secret verifies.
    const fresh = parse(rotated.url(file)).query;
    expect(fresh.signature).not.toBe(query.signature);
    expect(() => downloads.verify(`sha256/${BLOB}`, fresh)).toThrow(/not valid/);
  });

  it('keeps fields apart: moving text between name and type breaks the signature', () => {
    const { query } = parse(downloads.url({ ...file, name: 'a\nb', contentType: 'c/d' }));
    expect(() =>
      downloads.verify(`sha256/${BLOB}`, { ...query, name: 'a', type: 'b\nc/d' }),
    ).toThrow(/not valid/);
  });
});
