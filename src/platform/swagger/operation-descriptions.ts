/**
 * Descriptions of the operations whose handler declares only a summary: what the answer holds,
 * in a sentence. A description on the handler (`@ApiOperation({ description })`) wins.
 */
export const OPERATION_DESCRIPTIONS: Readonly<Record<string, string>> = {
  adminCreateUser:
    'Creates a user and a first API token for it. The token is in the answer, shown this once.',
  adminCreateUserToken:
    'A new API token for the user, optionally labelled, expiring or scoped; shown this once.',
  getCollectionById: 'The collection, with its URLs and what the caller may do with it.',
  getOrganizationById: 'The organization, with its URLs and settings visible to the caller.',
  updateOrganizationAgentInstructions:
    'Replaces the instructions (a rich-text document) the documentation agent follows for this organization.',
  getConversationIssueById: 'One issue found in the support conversations, with its evidence.',
  getConversationById: 'One ingested support conversation, with its messages.',
  updateOrganizationInviteById: 'Changes the role (or access level) an invite link gives.',
  getMemberInOrganizationById: 'The member: its user, role and when it was last seen.',
  setUserAsSSOMemberForOrganization:
    "Marks the member as signing in through the organization's identity provider (or no longer).",
  getOpenAPISpecBySlug: 'The specification, its source and the state of its latest version.',
  createOrganizationSAMLProvider:
    'Adds a SAML identity provider members can sign in with; it becomes active once its entity ID, SSO URL and certificate are set.',
  getOrganizationSAMLProviderById:
    'The SAML provider, with the service-provider details (ACS URL, entity ID) to enter at the identity provider.',
  updateOrganizationSAMLProvider: 'Absent fields are unchanged.',
  getSiteById: 'The site, with its visibility, publishing state and URLs.',
  listSiteShareLinks: "The site's share links, newest first; each has the URL that uses it.",
  listTeamsInOrganizationById: "The organization's teams, by title; paginated.",
  getImportRun:
    'The import run: its status, the pages it made, its change request and, when it failed, why.',
  getTranslation: 'The translation: its source space, target space, language and last run.',
  getChangeRequestById:
    'By its ID or by its number in the space (`12`): the change request, its status, revisions and URLs.',
  getCommentInChangeRequest: 'The comment, its author, body and reactions.',
  postCommentReplyInChangeRequest: 'Adds a reply at the end of the comment thread.',
  getCommentReplyInChangeRequest: 'The reply, its author, body and reactions.',
  listFilesInChangeRequestById: 'The files of the change request, paginated.',
  getFileInChangeRequestById: 'The file, with a download URL (signed, short-lived).',
  listChangeRequestFileBacklinks:
    'The pages of the change request whose content links to the file.',
  getChangeRequestReviewById: 'The review: its reviewer, status and comment.',
  getCommentInSpace: 'The comment, its author, body and reactions.',
  postCommentReplyInSpace: 'Adds a reply at the end of the comment thread.',
  getCommentReplyInSpace: 'The reply, its author, body and reactions.',
  listFiles: 'The files of the current revision, paginated.',
  getFileById: 'The file, with a download URL (signed, short-lived).',
  listSpaceFileBacklinks: 'The pages of the current revision whose content links to the file.',
  listPageLinksInSpace:
    'The links found in the page, each with its target and whether it resolves.',
  listFilesInRevisionById: 'The files of that revision, paginated.',
  getFileInRevisionById: 'The file as it was in that revision, with a download URL.',
  getPageInRevisionById:
    'The page as it was in that revision: its document, or markdown with `format=markdown`.',
  listPagesInRevisionById: 'Every page of that revision, nested, in order (not paginated).',
  getPageInRevisionByPath:
    'The page at that path (`guides/quickstart`) in that revision, as `getPageInRevisionById` answers it.',
  getWebhook:
    'The webhook: its URL, events, the spaces and sites it is limited to, and whether it is active; never its secret.',
  getAuthenticatedUser:
    'The user the token belongs to. The first call to make: it checks the token works.',
};
