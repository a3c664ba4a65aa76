import type { Role } from '../platform/policy/roles';

/**
 * The organization roles conversation routes need (`@Access('organization', …)`): every member
 * with a role reads conversations, issues and clusters; ingesting takes the role of the
 * organization permission `ingestConversations` (admin).
 */
export const CONVERSATIONS_READ: Role = 'read';
export const CONVERSATIONS_INGEST: Role = 'admin';

/**
 * The source of conversations ingested with a user's API token. GitBook ingests through
 * integration installations (`integration:<name>:<installation>`); Bindery has no integrations,
 * so the API itself is the integration and the token's user the installation. Re-ingesting an
 * id with the same user's token updates the conversation.
 */
export function apiTokenSource(userId: string): string {
  return `integration:api:${userId}`;
}
