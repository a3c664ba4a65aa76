import { Injectable } from '@nestjs/common';
import { Clock } from '../platform/clock/clock';
import { AppConfig } from '../platform/config/app-config';
import { InstanceSecret } from '../platform/settings/instance-secret';
import { UrlBuilder } from '../platform/urls/url-builder';
import { type SignedUrlQuery, UrlSigner } from '../platform/urls/url-signer';
import type { EmailInvite } from './entities/email-invite.entity';

/**
 * The links of emailed invitations: `/v1/invitations/{id}?expires=…&signature=…`, signed over
 * the invite's id, address and expiry. The expiry must also be the invite's own, so renewing an
 * invite (inviting the address again) retires its earlier link, and deleting it retires all.
 */
@Injectable()
export class EmailInviteLinks {
  private readonly signer: UrlSigner;

  constructor(
    secret: InstanceSecret,
    clock: Clock,
    config: AppConfig,
    private readonly urls: UrlBuilder,
  ) {
    this.signer = new UrlSigner(
      secret,
      clock,
      'bindery-email-invite-v1',
      config.EMAIL_INVITE_TTL_HOURS * 3600,
    );
  }

  /** When an invite made now expires: a whole second, as its link carries it. */
  expiresAt(): Date {
    return new Date(this.signer.expiresFromNow() * 1000);
  }

  url(invite: Pick<EmailInvite, 'id' | 'email' | 'expiresAt'>): string {
    const expires = Math.floor(invite.expiresAt.getTime() / 1000);
    const signature = this.signer.sign(parts(invite.id, invite.email, expires));
    const query = new URLSearchParams({ expires: String(expires), signature });
    return `${this.urls.api('invitations', invite.id)}?${query}`;
  }

  /** Whether `query` is a valid, unexpired link to this invite as it stands. */
  check(
    invite: Pick<EmailInvite, 'id' | 'email' | 'expiresAt'>,
    query: SignedUrlQuery,
  ): 'valid' | 'invalid' | 'expired' {
    const verdict = this.signer.verify(query, (expires) => parts(invite.id, invite.email, expires));
    if (!verdict.valid) return verdict.reason;
    return verdict.expires * 1000 === invite.expiresAt.getTime() ? 'valid' : 'invalid';
  }
}

const parts = (id: string, email: string, expires: number) => ['email-invite', id, email, expires];
