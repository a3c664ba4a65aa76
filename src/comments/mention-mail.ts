import { Injectable } from '@nestjs/common';
import { type EntityManager, In } from 'typeorm';
import { changeRequestAppUrl } from '../change-requests/change-request-urls';
import type { JSONDocument } from '../content-engine/documents/document';
import { plainText } from '../content-engine/diff/inline-diff';
import { documentReferences } from '../content-engine/links/document-references';
import { type LocalisedMail, renderMail } from '../platform/mail/localised-mail';
import { Mailer } from '../platform/mail/mailer';
import { UrlBuilder } from '../platform/urls/url-builder';
import { SpaceAccessResolver } from '../spaces/space-access.resolver';
import { User } from '../users/entities/user.entity';
import type { Thread, ThreadRef } from './comment-thread';

/** Characters of the comment quoted in the email, at most. */
const EXCERPT_CHARACTERS = 500;

/** What a mention email tells. */
export interface MentionedMail {
  user: string;
  author: string;
  /** "Handbook", or "change request #4 of Handbook". */
  place: string;
  excerpt: string;
  url: string;
}

/** "You were mentioned", in each language written. */
export const MENTIONED: LocalisedMail<MentionedMail> = {
  en: (p) => ({
    subject: `${p.author} mentioned you in a comment in ${p.place}`,
    text:
      `Hello ${p.user},\n\n` +
      `${p.author} mentioned you in a comment in ${p.place}:\n\n` +
      `${p.excerpt
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n')}\n\n` +
      `Open it: ${p.url}\n`,
  }),
};

/** The users a comment's body mentions, in order, once each. */
export function mentionedUsers(body: JSONDocument): string[] {
  const users = documentReferences(body).flatMap(({ ref }) =>
    ref.kind === 'user' && typeof ref.user === 'string' ? [ref.user] : [],
  );
  return [...new Set(users)];
}

/**
 * Emails the users a comment or reply mentions (when email is on): those who can see its space,
 * but its author, and on an edit only those the earlier version did not mention.
 */
@Injectable()
export class MentionMail {
  constructor(
    private readonly mailer: Mailer,
    private readonly urls: UrlBuilder,
    private readonly spaceAccess: SpaceAccessResolver,
  ) {}

  /**
   * Of the users `body` mentions, those to email: who can see the space, but `authorId`. Asked
   * before the write's transaction (it reads with the pool).
   */
  async readers(thread: Thread, authorId: string, body: JSONDocument): Promise<string[]> {
    if (!this.mailer.enabled) return [];
    const readers: string[] = [];
    for (const userId of mentionedUsers(body)) {
      if (userId === authorId) continue;
      const access = await this.spaceAccess.resolve(userId, thread.spaceId);
      if (access && access.entity.deletedAt === null) readers.push(userId);
    }
    return readers;
  }

  /** One email to each of `userIds` but those `before` mentioned, in `manager`'s transaction. */
  async send(
    manager: EntityManager,
    ref: ThreadRef,
    thread: Thread,
    authorId: string,
    body: JSONDocument,
    userIds: string[],
    before?: JSONDocument,
  ): Promise<void> {
    const known = new Set(before ? mentionedUsers(before) : []);
    const recipients = userIds.filter((userId) => !known.has(userId));
    if (recipients.length === 0) return;
    const users = await manager.find(User, {
      select: { id: true, email: true, displayName: true },
      where: { id: In([authorId, ...recipients]) },
    });
    const byId = new Map(users.map((user) => [user.id, user]));
    const space = ref.space.entity;
    const changeRequest = thread.changeRequest;
    const place = changeRequest
      ? `change request #${changeRequest.number} of ${space.title}`
      : space.title;
    const url = changeRequest
      ? changeRequestAppUrl(this.urls, changeRequest)
      : this.urls.app('o', space.organizationId, 's', space.id);
    const text = body.nodes.map(plainText).join('\n').trim();
    const excerpt =
      text.length > EXCERPT_CHARACTERS ? `${text.slice(0, EXCERPT_CHARACTERS)}…` : text;
    for (const userId of recipients) {
      const user = byId.get(userId);
      if (!user) continue;
      const mail = renderMail(MENTIONED, undefined, {
        user: user.displayName,
        author: byId.get(authorId)?.displayName ?? 'Someone',
        place,
        excerpt,
        url,
      });
      await this.mailer.queue(manager, { to: user.email, ...mail });
    }
  }
}
