import { createHmac, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../platform/clock/clock';
import { DomainError } from '../../platform/errors/domain-error';
import { InstanceSecret } from '../../platform/settings/instance-secret';
import { UrlBuilder } from '../../platform/urls/url-builder';
import { blobKeyOf } from './file-content';

/** How long a `downloadURL` stays valid. */
export const DOWNLOAD_URL_TTL_SECONDS = 60 * 60;

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
 * Signed, expiring download URLs for file bytes (DESIGN.md "Content model"). The signature is
 * an HMAC-SHA256, keyed by the instance secret, over the blob key, the expiry, the file name
 * and the content type (JSON-encoded, so no field can bleed into another): a URL grants one
 * blob, served under that name and type, until it expires. No token is needed to follow it.
 */
@Injectable()
export class FileDownloads {
  constructor(
    private readonly secret: InstanceSecret,
    private readonly clock: Clock,
    private readonly urls: UrlBuilder,
  ) {}

  /** A URL valid for DOWNLOAD_URL_TTL_SECONDS from now. */
  url(file: { blob: string; name: string; contentType: string }): string {
    const grant: DownloadGrant = {
      blobKey: blobKeyOf(file.blob),
      name: file.name,
      contentType: file.contentType,
      expires: Math.floor(this.clock.now().getTime() / 1000) + DOWNLOAD_URL_TTL_SECONDS,
    };
    const query = new URLSearchParams({
      expires: String(grant.expires),
      name: grant.name,
      type: grant.contentType,
      signature: this.sign(grant),
    });
    return `${this.urls.api('files', ...grant.blobKey.split('/'))}?${query.toString()}`;
  }

  /**
   * The grant of a download URL for `blobKey`, with the seconds it remains valid; 403 when the
   * signature does not match or the URL has expired.
   */
  verify(blobKey: string, query: DownloadQuery): DownloadGrant & { remainingSeconds: number } {
    const { expires, name, type, signature } = query;
    if (
      typeof expires !== 'string' ||
      !/^\d{1,12}$/.test(expires) ||
      typeof name !== 'string' ||
      typeof type !== 'string' ||
      typeof signature !== 'string'
    ) {
      throw invalidSignature();
    }
    const grant: DownloadGrant = { blobKey, name, contentType: type, expires: Number(expires) };
    const expected = Buffer.from(this.sign(grant));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw invalidSignature();
    }
    const remainingSeconds = grant.expires - Math.floor(this.clock.now().getTime() / 1000);
    if (remainingSeconds <= 0) {
      throw expired();
    }
    return { ...grant, remainingSeconds: Math.min(remainingSeconds, DOWNLOAD_URL_TTL_SECONDS) };
  }

  private sign(grant: DownloadGrant): string {
    const payload = JSON.stringify([
      'bindery-file-v1',
      grant.blobKey,
      grant.expires,
      grant.name,
      grant.contentType,
    ]);
    return createHmac('sha256', this.secret.value).update(payload).digest('base64url');
  }
}
