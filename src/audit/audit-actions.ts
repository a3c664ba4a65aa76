/**
 * What each write operation of the API records: a stable action name in GitBook's style
 * (`<scope>.<resource>.<past-tense verb>`, kebab-case words; GitBook's own names where it has
 * one, such as `organization.settings.updated` or `site.redirect.created`) and the kind of
 * resource it changes. Keyed by the route's `operationId`.
 */
export interface AuditedOperation {
  action: string;
  /** The kind of the target (`space`, `site-redirect`, …). */
  target: string;
  /**
   * Where the target's id is: `response` (the created object's `id`; `response.user` its
   * `user`'s; `response.slug` its `slug`), or a path parameter. Default: `response` for creations, else the route's last
   * path parameter.
   */
  from?: 'response' | 'response.user' | 'response.slug' | `param:${string}`;
}

type Entry = [action: string, target: string, from?: AuditedOperation['from']];

const ENTRIES: Record<string, Entry> = {
  // The instance administrator and users' own tokens (no organization).
  adminCreateUser: ['user.created', 'user', 'response.user'],
  adminUpdateUser: ['user.updated', 'user'],
  adminDeleteUser: ['user.deleted', 'user'],
  adminCreateUserToken: ['user.token.created', 'api-token'],
  adminRevokeUserToken: ['user.token.revoked', 'api-token'],
  adminRetryJob: ['job.retried', 'job'],
  createUserToken: ['user.token.created', 'api-token'],
  revokeUserToken: ['user.token.revoked', 'api-token'],
  updateUserById: ['user.updated', 'user'],

  // Organizations and their administration.
  createOrganization: ['organization.created', 'organization'],
  updateOrganizationById: ['organization.settings.updated', 'organization'],
  updateOrganizationAgentInstructions: ['organization.agent-instructions.updated', 'organization'],
  inviteUsersToOrganization: ['organization.member.invited', 'organization'],
  joinOrganization: ['organization.member.joined', 'organization', 'param:organizationId'],
  joinOrganizationWithInvite: [
    'organization.member.joined',
    'organization',
    'param:organizationId',
  ],
  createOrganizationInvite: ['organization.link-invite.created', 'organization-invite'],
  updateOrganizationInviteById: ['organization.link-invite.updated', 'organization-invite'],
  deleteOrganizationInviteById: ['organization.link-invite.deleted', 'organization-invite'],
  revokeOrganizationEmailInvite: ['organization.email-invite.revoked', 'email-invite'],
  updateMemberInOrganizationById: ['organization.member.updated', 'user'],
  removeMemberFromOrganizationById: ['organization.member.removed', 'user'],
  setUserAsSSOMemberForOrganization: ['organization.member.sso-enabled', 'user', 'param:userId'],
  createOrganizationTeam: ['organization.team.created', 'team'],
  updateTeamInOrganizationById: ['organization.team.updated', 'team'],
  removeTeamFromOrganizationById: ['organization.team.deleted', 'team'],
  updateMembersInOrganizationTeam: ['organization.team.members-updated', 'team'],
  addMemberToOrganizationTeamById: ['organization.team.member-added', 'user'],
  deleteMemberFromOrganizationTeamById: ['organization.team.member-removed', 'user'],
  createOrganizationSAMLProvider: ['organization.saml-provider.created', 'saml-provider'],
  updateOrganizationSAMLProvider: ['organization.saml-provider.updated', 'saml-provider'],
  deleteOrganizationSAMLProvider: ['organization.saml-provider.deleted', 'saml-provider'],
  ingestConversation: ['organization.conversations.ingested', 'organization'],
  createWebhook: ['organization.webhook.created', 'webhook'],
  updateWebhook: ['organization.webhook.updated', 'webhook'],
  deleteWebhook: ['organization.webhook.deleted', 'webhook'],
  rotateWebhookSecret: ['organization.webhook.secret-rotated', 'webhook'],
  redeliverWebhookDelivery: ['organization.webhook.delivery-redelivered', 'webhook-delivery'],
  // Integrations are named by their name; their organization is the one that owns them.
  publishIntegration: ['integration.published', 'integration', 'param:integrationName'],
  unpublishIntegration: ['integration.unpublished', 'integration', 'param:integrationName'],
  setIntegrationDevelopmentMode: [
    'integration.development-mode.enabled',
    'integration',
    'param:integrationName',
  ],
  disableIntegrationDevelopmentMode: [
    'integration.development-mode.disabled',
    'integration',
    'param:integrationName',
  ],
  // Installations are named by their id, a space or site installation by its space or site
  // (its creation by the installation: the space or site is in the body). installIntegration
  // names its organization only in its body: its event has none.
  installIntegration: ['integration.installation.created', 'integration-installation'],
  updateIntegrationInstallation: ['integration.installation.updated', 'integration-installation'],
  uninstallIntegration: ['integration.installation.deleted', 'integration-installation'],
  installIntegrationOnSpace: [
    'integration.space-installation.created',
    'integration-installation',
    'param:installationId',
  ],
  updateIntegrationSpaceInstallation: ['integration.space-installation.updated', 'space'],
  uninstallIntegrationFromSpace: ['integration.space-installation.deleted', 'space'],
  installIntegrationOnSite: [
    'integration.site-installation.created',
    'integration-installation',
    'param:installationId',
  ],
  updateIntegrationSiteInstallation: ['integration.site-installation.updated', 'site'],
  uninstallIntegrationFromSite: ['integration.site-installation.deleted', 'site'],
  // A specification is named by its slug in the routes that change it.
  createOpenAPISpec: ['organization.openapi-spec.created', 'openapi-spec', 'response.slug'],
  createOrUpdateOpenAPISpecBySlug: ['organization.openapi-spec.updated', 'openapi-spec'],
  updateOpenAPISpecBySlug: ['organization.openapi-spec.updated', 'openapi-spec'],
  deleteOpenAPISpecBySlug: ['organization.openapi-spec.deleted', 'openapi-spec'],
  createTranslation: ['organization.translation.created', 'translation'],
  updateTranslation: ['organization.translation.updated', 'translation'],
  deleteTranslation: ['organization.translation.deleted', 'translation'],
  runTranslation: ['organization.translation.run', 'translation'],
  startImportRun: ['organization.import.started', 'import-run', 'response'],
  cancelImportRun: ['organization.import.cancelled', 'import-run'],
  createCustomFont: ['organization.custom-font.created', 'custom-font'],
  updateCustomFont: ['organization.custom-font.updated', 'custom-font'],
  deleteCustomFont: ['organization.custom-font.deleted', 'custom-font'],
  updateGlossaryEntries: [
    'organization.translations-glossary.updated',
    'organization',
    'param:organizationId',
  ],

  // Collections.
  createCollection: ['collection.created', 'collection'],
  updateCollectionById: ['collection.updated', 'collection'],
  deleteCollectionById: ['collection.deleted', 'collection'],
  moveCollection: ['collection.moved', 'collection'],
  transferCollection: ['collection.transferred', 'collection'],
  inviteToCollection: ['collection.permissions.added', 'collection'],
  updateUserPermissionInCollection: ['collection.user-permission.updated', 'user'],
  removeUserFromCollection: ['collection.user-permission.removed', 'user'],
  updateTeamPermissionInCollection: ['collection.team-permission.updated', 'team'],
  removeTeamFromCollection: ['collection.team-permission.removed', 'team'],

  // Spaces.
  createSpace: ['space.created', 'space'],
  updateSpaceById: ['space.updated', 'space'],
  deleteSpaceById: ['space.deleted', 'space'],
  restoreSpace: ['space.restored', 'space'],
  duplicateSpace: ['space.duplicated', 'space', 'response'],
  moveSpace: ['space.moved', 'space'],
  transferSpace: ['space.transferred', 'space'],
  applyTemplateToSpace: ['space.template.applied', 'space'],
  inviteToSpace: ['space.permissions.added', 'space'],
  updateUserPermissionInSpace: ['space.user-permission.updated', 'user'],
  removeUserFromSpace: ['space.user-permission.removed', 'user'],
  updateTeamPermissionInSpace: ['space.team-permission.updated', 'team'],
  removeTeamFromSpace: ['space.team-permission.removed', 'team'],
  exportToGitRepository: ['space.git.exported', 'space'],
  importGitRepository: ['space.git.imported', 'space'],
  deleteLegacyGitInstallation: ['space.git-installation.deleted', 'space'],
  postCommentInSpace: ['space.comment.created', 'comment'],
  updateCommentInSpace: ['space.comment.updated', 'comment'],
  deleteCommentInSpace: ['space.comment.deleted', 'comment'],
  postCommentReplyInSpace: ['space.comment.reply-created', 'comment-reply', 'response'],
  updateCommentReplyInSpace: ['space.comment.reply-updated', 'comment-reply'],
  deleteCommentReplyInSpace: ['space.comment.reply-deleted', 'comment-reply'],

  // Change requests.
  createChangeRequest: ['change-request.created', 'change-request'],
  updateChangeRequestById: ['change-request.updated', 'change-request'],
  updateChangeRequestContent: ['change-request.content.updated', 'change-request'],
  updateChangeRequest: ['change-request.primary-merged', 'change-request'],
  mergeChangeRequest: ['change-request.merged', 'change-request'],
  requestReviewersForChangeRequest: ['change-request.reviewers.requested', 'change-request'],
  removeRequestedReviewerFromChangeRequest: [
    'change-request.reviewer.removed',
    'change-request',
    'param:changeRequestId',
  ],
  submitChangeRequestReview: [
    'change-request.review.submitted',
    'change-request',
    'param:changeRequestId',
  ],
  postCommentInChangeRequest: ['change-request.comment.created', 'comment'],
  updateCommentInChangeRequest: ['change-request.comment.updated', 'comment'],
  deleteCommentInChangeRequest: ['change-request.comment.deleted', 'comment'],
  postCommentReplyInChangeRequest: [
    'change-request.comment.reply-created',
    'comment-reply',
    'response',
  ],
  updateCommentReplyInChangeRequest: ['change-request.comment.reply-updated', 'comment-reply'],
  deleteCommentReplyInChangeRequest: ['change-request.comment.reply-deleted', 'comment-reply'],

  // Docs sites.
  createSite: ['site.created', 'site'],
  updateSiteById: ['site.updated', 'site'],
  // A custom hostname is named by itself (its site's id is in the audit's resolved resource).
  dnsRevalidateCustomHostname: ['site.custom-hostname.revalidated', 'custom-hostname'],
  removeCustomHostname: ['site.custom-hostname.removed', 'custom-hostname'],
  deleteSiteById: ['site.deleted', 'site'],
  publishSite: ['site.published', 'site'],
  unpublishSite: ['site.unpublished', 'site'],
  inviteToSite: ['site.permissions.added', 'site'],
  updateUserPermissionInSite: ['site.user-permission.updated', 'user'],
  removeUserFromSite: ['site.user-permission.removed', 'user'],
  updateTeamPermissionInSite: ['site.team-permission.updated', 'team'],
  removeTeamFromSite: ['site.team-permission.removed', 'team'],
  updateSiteCustomizationById: ['site.customization.updated', 'site'],
  updateSiteAgentSettingsById: ['site.agent-settings.updated', 'site'],
  updateSiteAdaptiveSchema: ['site.adaptive-schema.updated', 'site'],
  updateSitePublishingAuthById: ['site.publishing-auth.updated', 'site'],
  regenerateSitePublishingAuthById: ['site.publishing-auth.regenerated', 'site'],
  sortSiteStructure: ['site.structure.sorted', 'site'],
  createSiteRedirect: ['site.redirect.created', 'site-redirect'],
  updateSiteRedirectById: ['site.redirect.updated', 'site-redirect'],
  deleteSiteRedirectById: ['site.redirect.deleted', 'site-redirect'],
  bulkUpsertSiteRedirects: ['site.redirects.bulk-updated', 'site'],
  createSiteShareLink: ['site.share-link.created', 'share-link'],
  updateSiteShareLinkById: ['site.share-link.updated', 'share-link'],
  deleteSiteShareLinkById: ['site.share-link.deleted', 'share-link'],
  addSpaceToSite: ['site.space.added', 'site-space', 'response'],
  updateSiteSpaceById: ['site.space.updated', 'site-space'],
  deleteSiteSpaceById: ['site.space.removed', 'site-space'],
  moveSiteSpace: ['site.space.moved', 'site-space'],
  duplicateSiteSpace: ['site.space.duplicated', 'site-space', 'response'],
  overrideSiteSpaceCustomizationById: ['site.space.customization-updated', 'site-space'],
  deleteSiteSpaceCustomizationById: ['site.space.customization-deleted', 'site-space'],
  addSectionToSite: ['site.section.added', 'site-section', 'response'],
  updateSiteSectionById: ['site.section.updated', 'site-section'],
  deleteSiteSectionById: ['site.section.deleted', 'site-section'],
  moveSiteSection: ['site.section.moved', 'site-section'],
  addSectionGroupToSite: ['site.section-group.added', 'site-section-group', 'response'],
  updateSiteSectionGroupById: ['site.section-group.updated', 'site-section-group'],
  deleteSiteSectionGroupById: ['site.section-group.deleted', 'site-section-group'],
  moveSiteSectionGroup: ['site.section-group.moved', 'site-section-group'],
  addSectionToGroup: ['site.section-group.section-added', 'site-section', 'response'],
  removeSectionFromGroup: ['site.section-group.section-removed', 'site-section'],
  addExternalLinkToSite: ['site.external-link.added', 'site-external-link', 'response'],
  updateSiteExternalLinkById: ['site.external-link.updated', 'site-external-link'],
  deleteSiteExternalLinkById: ['site.external-link.deleted', 'site-external-link'],
};

/**
 * POSTs that change nothing someone would audit: searches, questions (recorded as questions:
 * site insights) and aggregations read with a body, agents' feedback on a site (a visitor's
 * remark, recorded with the site's questions), and a member's presence ping (`lastSeenAt`)
 * would fill the log with heartbeats.
 */
export const UNAUDITED_OPERATIONS: ReadonlySet<string> = new Set([
  'searchSiteContent',
  'streamAskInSite',
  'streamAIResponseInSite',
  'askInOrganization',
  'submitSiteAgentFeedback',
  'submitAgentFeedbackToSite',
  'aggregateSiteEvents',
  'updateOrganizationMemberLastSeenAt',
  // Draws an integration's component: a read sent as a POST, as GitBook's.
  'renderIntegrationUIWithPost',
  // Content computed by an integration's content source: nothing is stored.
  'getComputedDocument',
  'getComputedRevision',
  // An integration's own work: an hour's token for one of its installations (nothing stored),
  // and a task for its own script (recorded with its events).
  'createIntegrationInstallationToken',
  'queueIntegrationTask',
  // A signed URL to upload to (nothing stored until an operation takes the file: that one is).
  'generateStorageUploadURL',
]);

export const AUDITED_OPERATIONS: ReadonlyMap<string, AuditedOperation> = new Map(
  Object.entries(ENTRIES).map(([operationId, [action, target, from]]) => [
    operationId,
    { action, target, ...(from ? { from } : {}) },
  ]),
);

/**
 * The action of an operation no entry names (a route added without one): derived from its
 * operationId, `createWidgetThing` → `widget-thing.created`.
 */
export function derivedOperation(operationId: string): AuditedOperation {
  const words = operationId
    .replace(/ById$/, '')
    .split(/(?=[A-Z])/)
    .map((word) => word.toLowerCase());
  const [verb, ...nouns] = words;
  const noun = nouns.join('-') || 'resource';
  const past = verb.endsWith('e') ? `${verb}d` : `${verb}ed`;
  return { action: `${noun}.${past}`, target: noun };
}

const LABELS: Record<string, string> = {
  'organization.member.sso-enabled': 'Set organization member as SSO member',
  'organization.translation.run': 'Ran organization translation',
  'organization.translations-glossary.updated': 'Updated organization translation glossary',
  'change-request.primary-merged': 'Updated change request from the primary content',
  'site.redirects.bulk-updated': 'Updated site redirects in bulk',
};

/**
 * The label of an action, as GitBook writes its own: the verb first, then the nouns
 * (`organization.team.member-added` → `Added organization team member`).
 */
export function actionLabel(action: string): string {
  const known = LABELS[action];
  if (known) return known;
  const segments = action.split('.');
  const last = segments.pop() ?? '';
  const words = last.split('-');
  const verb = words.pop() ?? '';
  const nouns = [...segments, ...words].join(' ').replace(/-/g, ' ');
  return `${verb.charAt(0).toUpperCase()}${verb.slice(1)} ${nouns}`.trim();
}

/** Every action the API records, once each, sorted. */
export function auditActions(): { id: string; label: string }[] {
  const ids = [...new Set([...AUDITED_OPERATIONS.values()].map((entry) => entry.action))].sort();
  return ids.map((id) => ({ id, label: actionLabel(id) }));
}
