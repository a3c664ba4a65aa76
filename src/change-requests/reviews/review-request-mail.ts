import { Injectable } from '@nestjs/common';
import { type EntityManager, In } from 'typeorm';
import { type LocalisedMail, renderMail } from '../../platform/mail/localised-mail';
import { Mailer } from '../../platform/mail/mailer';
import { UrlBuilder } from '../../platform/urls/url-builder';
import { User } from '../../users/entities/user.entity';
import { changeRequestAppUrl } from '../change-request-urls';
import type { ChangeRequest } from '../entities/change-request.entity';

/** What a review request email tells. */
export interface ReviewRequestedMail {
  reviewer: string;
  requester: string;
  subject: string;
  number: number;
  space: string;
  url: string;
}

/** "Review requested", in each language written. */
export const REVIEW_REQUESTED: LocalisedMail<ReviewRequestedMail> = {
  en: (p) => ({
    subject: `${p.requester} asked you to review "${p.subject}"`,
    text:
      `Hello ${p.reviewer},\n\n` +
      `${p.requester} asked you to review change request #${p.number}, "${p.subject}", ` +
      `in ${p.space}.\n\n` +
      `Open it: ${p.url}\n`,
  }),
};

/** Emails the users asked to review a change request (when email is on). */
@Injectable()
export class ReviewRequestMail {
  constructor(
    private readonly mailer: Mailer,
    private readonly urls: UrlBuilder,
  ) {}

  /**
   * One email to each reviewer but the one who asked, in `manager`'s transaction: sent only if
   * the request commits.
   */
  async send(
    manager: EntityManager,
    changeRequest: ChangeRequest,
    spaceTitle: string,
    requesterId: string,
    reviewerIds: string[],
  ): Promise<void> {
    if (!this.mailer.enabled) return;
    const users = await manager.find(User, {
      select: { id: true, email: true, displayName: true },
      where: { id: In([requesterId, ...reviewerIds]) },
    });
    const byId = new Map(users.map((user) => [user.id, user]));
    const requester = byId.get(requesterId)?.displayName ?? 'Someone';
    const url = changeRequestAppUrl(this.urls, changeRequest);
    for (const reviewerId of reviewerIds) {
      const reviewer = byId.get(reviewerId);
      if (!reviewer || reviewerId === requesterId) continue;
      const mail = renderMail(REVIEW_REQUESTED, undefined, {
        reviewer: reviewer.displayName,
        requester,
        subject: changeRequest.subject || 'Untitled change request',
        number: changeRequest.number,
        space: spaceTitle,
        url,
      });
      await this.mailer.queue(manager, { to: reviewer.email, ...mail });
    }
  }
}
