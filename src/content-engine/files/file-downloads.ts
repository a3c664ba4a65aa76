import { Injectable } from '@nestjs/common';
import { Clock } from '../../platform/clock/clock';
import { DomainError } from '../../platform/errors/domain-error';
import { InstanceSecret } from '../../platform/settings/instance-secret';
import { UrlBuilder } from '../../platform/urls/url-builder';
import { UrlSigner } from '../../platform/urls/url-signer';
import { blobKeyOf, servedContentType } from './file-content';

/** How long a `downloadURL` stays valid. */
export const DOWNLOAD_URL_TTL_SECONDS = 60 * 60;
/**
 * How long, at least, a `downloadURL` read by a published site's renderer stays valid: it
 * caches revisions for 30 days and puts the URL in pages as is.
 */
export const PUBLISHED_DOWNLOAD_URL_DAYS = 31;
const DAY_SECONDS = 24 * 60 * 60;

/** What a download URL carries besides the blob: how to serve it, and until when. */
export interface DownloadGrant {
  /** BlobStore key, `sha256/<hex>`. */
  blobKey: string;
  name: string;
  contentType: string;
  /** Unix time (seconds) after which the URL is refused. */
  expires: number;
}

/** The query string of a download URL, as received (any part may be missing). */
export interface DownloadQuery {
  expires?: string;
  name?: string;
  type?: string;
  signature?: string;
}

const invalidSignature = () =>
  new DomainError('forbidden', 'InvalidDownloadSignature', 'The download URL is not valid.');

const expired = () =>
  new DomainError(
    'forbidden',
    'DownloadURLExpired',
    'The download URL has expired; read the file again for a fresh one.',
  );

/**
 * Signed, expiring download URLs for file bytes (DESIGN.md "Content model"). The signature
 * (see UrlSigner) covers the blob key, the expiry, the file name and the content type: a URL
 * grants one blob, served under that name and type, until it expires. No token is needed to
 * follow it.
 */
@Injectable()
export class FileDownloads {
  private readonly signer: UrlSigner;

  constructor(
    secret: InstanceSecret,
    clock: Clock,
    private readonly urls: UrlBuilder,
  ) {
    this.signer = new UrlSigner(secret, clock, 'bindery-file-v1', DOWNLOAD_URL_TTL_SECONDS);
  }

  /**
   * A URL valid for DOWNLOAD_URL_TTL_SECONDS from now; for a published site's readers
   * (`published`), PUBLISHED_DOWNLOAD_URL_DAYS at least, and the same URL all day (renderers
   * cache pages by what they hold).
   */
  url(file: { blob: string; name: string; contentType: string }, published = false): string {
    const grant: DownloadGrant = {
      blobKey: blobKeyOf(file.blob),
      name: file.name,
      contentType: file.contentType,
      expires: published ? this.publishedExpiry() : this.signer.expiresFromNow(),
    };
    const query = new URLSearchParams({
      expires: String(grant.expires),
      name: grant.name,
      type: grant.contentType,
      signature: this.signer.sign(signedParts(grant)),
    });
    return `${this.urls.api('files', ...grant.blobKey.split('/'))}?${query.toString()}`;
  }

  private publishedExpiry(): number {
    const today = Math.floor(this.signer.expiresFromNow() / DAY_SECONDS) * DAY_SECONDS;
    return today + (PUBLISHED_DOWNLOAD_URL_DAYS + 1) * DAY_SECONDS;
  }

  /**
   * The grant of a download URL for `blobKey`, with the seconds it remains valid and the content
   * type as served (a charset added to text types); 403 when the signature does not match or
   * the URL has expired.
   */
  verify(blobKey: string, query: DownloadQuery): DownloadGrant & { remainingSeconds: number } {
    const { name, type } = query;
    if (typeof name !== 'string' || typeof type !== 'string') {
      throw invalidSignature();
    }
    const verdict = this.signer.verify(query, (expires) =>
      signedParts({ blobKey, name, contentType: type, expires }),
    );
    if (!verdict.valid) {
      throw verdict.reason === 'expired' ? expired() : invalidSignature();
    }
    return {
      blobKey,
      name,
      contentType: servedContentType(type),
      expires: verdict.expires,
      remainingSeconds: verdict.remainingSeconds,
    };
  }
}

const DOWNLOAD_PATH = /\/files\/sha256\/([0-9a-f]{64})$/;

/**
 * The blob and file name a download URL (FileDownloads.url) serves, by its form alone, valid
 * or expired; undefined for any other URL. A markdown body read with its files' download URLs
 * names them again by these when it is written back.
 */
export function downloadUrlTarget(url: string): { blob: string; name: string } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const blob = DOWNLOAD_PATH.exec(parsed.pathname)?.[1];
  const name = parsed.searchParams.get('name');
  if (!blob || name === null || !parsed.searchParams.has('signature')) return undefined;
  return { blob, name };
}

function signedParts(grant: DownloadGrant): (string | number)[] {
  return [grant.blobKey, grant.expires, grant.name, grant.contentType];
}
