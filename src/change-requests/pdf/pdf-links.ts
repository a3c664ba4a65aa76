import { Injectable } from '@nestjs/common';
import { Clock } from '../../platform/clock/clock';
import { DomainError } from '../../platform/errors/domain-error';
import { InstanceSecret } from '../../platform/settings/instance-secret';
import { UrlBuilder } from '../../platform/urls/url-builder';
import { UrlSigner, type SignedPart } from '../../platform/urls/url-signer';
import type {
  ChangeRequestPdfDownloadQueryDto,
  SpacePdfDownloadQueryDto,
} from './dto/change-request-pdf.dto';

/** How long a PDF URL stays valid (GitBook: "The URL will work for 1h"). */
export const PDF_URL_TTL_SECONDS = 60 * 60;

/** What a PDF URL grants: one selection of one revision of a change request, until `expires`. */
export interface PdfGrant {
  spaceId: string;
  changeRequestId: string;
  /** The change request's head when the URL was made: the URL always prints the same thing. */
  revision: string;
  /** The page printed (with its subpages unless `only`); every page when absent. */
  page?: string;
  only: boolean;
  /** Unix time (seconds) after which the URL is refused. */
  expires: number;
}

const invalidSignature = () =>
  new DomainError('forbidden', 'InvalidPdfSignature', 'The PDF URL is not valid.');

const expired = (of = 'the change request') =>
  new DomainError(
    'forbidden',
    'PdfURLExpired',
    `The PDF URL has expired; ask for the PDF of ${of} again for a fresh one.`,
  );

/** What a space PDF URL grants: one selection of one revision of a space, until `expires`. */
export interface SpacePdfGrant {
  spaceId: string;
  /** The space's primary revision when the URL was made. */
  revision: string;
  page?: string;
  only: boolean;
  expires: number;
}

/**
 * Signed, expiring URLs of change request PDFs, served by Bindery itself like file downloads
 * (see UrlSigner): following one needs no token, and it prints what was asked for, as it was
 * when asked.
 */
@Injectable()
export class PdfLinks {
  private readonly signer: UrlSigner;
  private readonly spaceSigner: UrlSigner;

  constructor(
    secret: InstanceSecret,
    clock: Clock,
    private readonly urls: UrlBuilder,
  ) {
    this.signer = new UrlSigner(
      secret,
      clock,
      'bindery-change-request-pdf-v1',
      PDF_URL_TTL_SECONDS,
    );
    this.spaceSigner = new UrlSigner(secret, clock, 'bindery-space-pdf-v1', PDF_URL_TTL_SECONDS);
  }

  /** A URL of a space's PDF, valid for PDF_URL_TTL_SECONDS from now. */
  spaceUrl(request: Omit<SpacePdfGrant, 'expires'>): string {
    const grant: SpacePdfGrant = { ...request, expires: this.spaceSigner.expiresFromNow() };
    const query = new URLSearchParams({ revision: grant.revision });
    if (grant.page !== undefined) {
      query.set('page', grant.page);
      if (grant.only) query.set('only', 'true');
    }
    query.set('expires', String(grant.expires));
    query.set('signature', this.spaceSigner.sign(spaceSignedParts(grant)));
    return `${this.urls.api('pdf', 'spaces', grant.spaceId)}?${query.toString()}`;
  }

  /** The grant of a space PDF URL; 403 when its signature does not match or it has expired. */
  verifySpace(
    spaceId: string,
    query: SpacePdfDownloadQueryDto,
  ): SpacePdfGrant & { remainingSeconds: number } {
    const { revision, page, only } = query;
    if (
      typeof revision !== 'string' ||
      page === '' ||
      (only !== undefined && (only !== 'true' || page === undefined))
    ) {
      throw invalidSignature();
    }
    const grant = { spaceId, revision, page, only: only === 'true' };
    const verdict = this.spaceSigner.verify(query, (expires) =>
      spaceSignedParts({ ...grant, expires }),
    );
    if (!verdict.valid) {
      throw verdict.reason === 'expired' ? expired('the space') : invalidSignature();
    }
    return { ...grant, expires: verdict.expires, remainingSeconds: verdict.remainingSeconds };
  }

  /** A URL valid for PDF_URL_TTL_SECONDS from now. */
  url(request: Omit<PdfGrant, 'expires'>): string {
    const grant: PdfGrant = { ...request, expires: this.signer.expiresFromNow() };
    const query = new URLSearchParams({ space: grant.spaceId, revision: grant.revision });
    if (grant.page !== undefined) {
      query.set('page', grant.page);
      if (grant.only) query.set('only', 'true');
    }
    query.set('expires', String(grant.expires));
    query.set('signature', this.signer.sign(signedParts(grant)));
    return `${this.urls.api('pdf', 'change-requests', grant.changeRequestId)}?${query.toString()}`;
  }

  /**
   * The grant of a PDF URL, with the seconds it remains valid; 403 when its signature does not
   * match or it has expired.
   */
  verify(
    changeRequestId: string,
    query: ChangeRequestPdfDownloadQueryDto,
  ): PdfGrant & { remainingSeconds: number } {
    const { space, revision, page, only } = query;
    if (
      typeof space !== 'string' ||
      typeof revision !== 'string' ||
      page === '' ||
      (only !== undefined && (only !== 'true' || page === undefined))
    ) {
      throw invalidSignature();
    }
    const grant = { spaceId: space, changeRequestId, revision, page, only: only === 'true' };
    const verdict = this.signer.verify(query, (expires) => signedParts({ ...grant, expires }));
    if (!verdict.valid) {
      throw verdict.reason === 'expired' ? expired() : invalidSignature();
    }
    return { ...grant, expires: verdict.expires, remainingSeconds: verdict.remainingSeconds };
  }
}

function signedParts(grant: PdfGrant): SignedPart[] {
  return [
    grant.spaceId,
    grant.changeRequestId,
    grant.revision,
    grant.page ?? '',
    grant.only ? 1 : 0,
    grant.expires,
  ];
}

function spaceSignedParts(grant: SpacePdfGrant): SignedPart[] {
  return [grant.spaceId, grant.revision, grant.page ?? '', grant.only ? 1 : 0, grant.expires];
}
