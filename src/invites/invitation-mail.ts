import type { LocalisedMail } from '../platform/mail/localised-mail';
import type { Role } from '../platform/policy/roles';

/** What an invitation email tells. */
export interface InvitationMail {
  inviter: string;
  organization: string;
  role: Role | null;
  url: string;
  /** When the link stops working. */
  expiresAt: Date;
}

/** How English names the role a member has ("an editor"). */
const EN_ROLES: Record<Role, string> = {
  admin: 'an admin',
  create: 'a creator',
  edit: 'an editor',
  review: 'a reviewer',
  comment: 'a commenter',
  read: 'a reader',
};

/** "an editor", "a guest": a member's role, in English. */
export function roleName(role: Role | null): string {
  return role ? EN_ROLES[role] : 'a guest';
}

/** "You are invited", in each language written. */
export const INVITATION: LocalisedMail<InvitationMail> = {
  en: (p) => ({
    subject: `${p.inviter} invited you to join ${p.organization}`,
    text:
      `Hello,\n\n` +
      `${p.inviter} invited you to join ${p.organization} as ` +
      `${roleName(p.role)}.\n\n` +
      `Accept the invitation: ${p.url}\n\n` +
      `The link works until ${p.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC. ` +
      `If you did not expect this email, ignore it: nothing happens unless the link is followed.\n`,
  }),
};
