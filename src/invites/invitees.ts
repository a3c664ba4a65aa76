import { isEmail } from 'class-validator';
import { isRole, ROLES, type Role } from '../platform/policy/roles';

/** GitBook's `InviteUsersToOrganization.emails` item: an address, or an address with its role. */
export type InviteeInput = string | { email: string; role: Role | null };

export interface Invitee {
  /** As the caller wrote it (trimmed), to report it back. */
  given: string;
  /** Lower-cased, as users' emails are stored. */
  email: string;
  role: Role | null;
}

export const MAX_INVITEES = 100;
const MAX_EMAIL_LENGTH = 320;
const ROLE_CHOICES = `${ROLES.join(', ')} or null (guest)`;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isAddress = (value: unknown): value is string =>
  typeof value === 'string' && value.trim().length <= MAX_EMAIL_LENGTH && isEmail(value.trim());

/** What is wrong with an `emails` value, each problem naming its field; empty when valid. */
export function inviteEmailsProblems(value: unknown, field = 'emails'): string[] {
  if (!Array.isArray(value)) return [`${field} must be an array`];
  if (value.length === 0) return [`${field} must contain at least 1 email`];
  if (value.length > MAX_INVITEES) return [`${field} must contain at most ${MAX_INVITEES} emails`];
  return value.flatMap((item, i) => inviteeProblems(item, `${field}.${i}`));
}

function inviteeProblems(item: unknown, field: string): string[] {
  if (typeof item === 'string') {
    return isAddress(item) ? [] : [`${field} must be an email address`];
  }
  if (!isObject(item)) return [`${field} must be an email address or an {email, role} object`];
  const problems = Object.keys(item)
    .filter((key) => key !== 'email' && key !== 'role')
    .map((key) => `property ${field}.${key} should not exist`);
  if (!isAddress(item.email)) problems.push(`${field}.email must be an email address`);
  if (!('role' in item) || (item.role !== null && !isRole(item.role))) {
    problems.push(`${field}.role must be one of ${ROLE_CHOICES}`);
  }
  return problems;
}

/**
 * The invitees of a valid `emails` value, each address once (the first mention wins), with
 * its own role or else `defaultRole`.
 */
export function normaliseInvitees(emails: InviteeInput[], defaultRole: Role | null): Invitee[] {
  const invitees = new Map<string, Invitee>();
  for (const item of emails) {
    const given = (typeof item === 'string' ? item : item.email).trim();
    const email = given.toLowerCase();
    if (invitees.has(email)) continue;
    invitees.set(email, { given, email, role: typeof item === 'string' ? defaultRole : item.role });
  }
  return [...invitees.values()];
}
