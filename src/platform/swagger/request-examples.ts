/**
 * A request body example for every operation that takes one, shown by "Try it out" and checked
 * against the operation's request schema by api-document.spec.ts. The IDs are made up: replace
 * them with your own.
 */
const ORG = 'obYuLe3ZwMbWDRDmYY0o';
const SPACE = 'h1Qp0dXb3kYtR8mZs2Va';
const OTHER_SPACE = 'k8Rm2Wq5Tz1Lp7Nd4Hs3';
const USER = 'u7Hk2PqRs9TdWx4YbZ1c';
const TEAM = 'tKp3Wq8Ls2Nd5Rf7Hj0m';
const PAGE = 'pG4kLm8Nq2Rs6Tv0Wx3y';
const COLLECTION = 'cL5nQ1wE8rT3yU6iO9pA';
const SITE_SPACE = 'sitesp_Q2w4E6r8T0y1U3i5';
const SITE_SECTION = 'sitesc_M3n5B7v9C1x2Z4l6';

const paragraph = (text: string) => ({
  object: 'document',
  data: {},
  nodes: [
    {
      object: 'block',
      type: 'paragraph',
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
    },
  ],
});

const tokenScopes = { access: 'read-only', organization: ORG, spaces: [SPACE] };

export const REQUEST_EXAMPLES: Readonly<Record<string, unknown>> = {
  // admin, api-tokens
  adminCreateUser: { email: 'ada@example.com', displayName: 'Ada Lovelace' },
  adminUpdateUser: { disabled: true },
  adminCreateUserToken: { label: 'CI deploys', expiresAt: '2030-01-01T00:00:00.000Z' },
  createUserToken: { label: 'Docs sync script', scopes: tokenScopes },
  updateUserById: { displayName: 'Ada Lovelace', photoURL: 'https://example.com/ada.png' },

  // organizations, members, invites
  createOrganization: { title: 'Acme Docs', type: 'business', emailDomains: ['acme.example'] },
  updateOrganizationById: { title: 'Acme Documentation', defaultRole: 'read', inviteLinks: true },
  updateOrganizationAgentInstructions: {
    instructions: paragraph('Answer briefly and link to the page that explains more.'),
  },
  inviteUsersToOrganization: {
    emails: ['grace@acme.example', { email: 'linus@acme.example', role: 'edit' }],
    role: 'read',
  },
  createOrganizationInvite: { role: 'edit' },
  updateOrganizationInviteById: { role: 'comment' },
  updateMemberInOrganizationById: { role: 'admin' },
  acceptInvitation: { displayName: 'Grace Hopper' },
  ingestConversation: {
    id: 'ticket-4711',
    subject: 'Cannot find the rate limits',
    metadata: { url: 'https://support.acme.example/tickets/4711' },
    parts: [
      { type: 'message', role: 'user', body: 'Where are the API rate limits documented?' },
      { type: 'message', role: 'team-member', body: 'In Reference → Limits; we will link it.' },
    ],
  },

  // teams
  createOrganizationTeam: { title: 'Writers', members: [USER] },
  updateTeamInOrganizationById: { title: 'Technical writers' },
  updateMembersInOrganizationTeam: { add: [USER], remove: [] },
  addMemberToOrganizationTeamById: { role: 'member' },

  // sso, sign-in
  createOrganizationSAMLProvider: {
    label: 'Okta',
    entityID: 'http://www.okta.com/exk1a2b3c4d5e6f7g8h9',
    ssoURL: 'https://acme.okta.com/app/bindery/exk1a2b3c4d5e6f7g8h9/sso/saml',
    defaultRole: 'read',
  },
  updateOrganizationSAMLProvider: { idpInitiatedLogin: true, defaultRole: 'comment' },
  consumeSamlAssertion: { SAMLResponse: 'PHNhbWxwOlJlc3BvbnNlIC4uLj4=', RelayState: '/' },
  exchangeSsoSignInCode: { code: 'c9f1e2d3b4a5968778695a4b3c2d1e0f' },

  // collections
  createCollection: { title: 'Product guides' },
  updateCollectionById: { title: 'Guides', defaultLevel: 'read' },
  moveCollection: { parent: null },
  inviteToCollection: { role: 'edit', teams: [TEAM] },
  updateTeamPermissionInCollection: { role: 'review' },
  updateUserPermissionInCollection: { role: 'comment' },
  transferCollection: { organization: 'oR9tY2uI5oP8aS1dF4gH' },

  // spaces
  createSpace: { title: 'Getting started', emoji: '1f680', parent: COLLECTION },
  updateSpaceById: { title: 'Developer guide', visibility: 'in-collection', editMode: 'locked' },
  moveSpace: { position: { after: { type: 'space', space: OTHER_SPACE } } },
  inviteToSpace: { role: 'edit', users: [USER] },
  inviteToSite: { role: 'create', users: [USER], teams: [TEAM] },
  updateTeamPermissionInSpace: { role: 'review' },
  updateUserPermissionInSpace: { role: 'comment' },
  updateTeamPermissionInSite: { role: 'create' },
  updateUserPermissionInSite: { role: 'admin' },
  transferSpace: { organization: 'oR9tY2uI5oP8aS1dF4gH' },
  applyTemplateToSpace: {
    id: 'api-reference',
    params: { contentRefs: { spec: { kind: 'openapi', spec: 'petstore' } } },
  },
  importGitRepository: {
    url: 'https://github.com/acme/docs.git',
    ref: 'refs/heads/main',
    repoProjectDirectory: 'docs',
  },
  exportToGitRepository: {
    url: 'https://github.com/acme/docs.git',
    ref: 'refs/heads/main',
    commitMessage: 'Update the docs from Bindery',
  },

  // comments
  postCommentInSpace: { body: { markdown: 'Should this say **v2**?' }, page: PAGE },
  updateCommentInSpace: { resolved: true },
  postCommentReplyInSpace: { body: { markdown: 'Yes, fixed in the latest change request.' } },
  updateCommentReplyInSpace: { body: { markdown: 'Yes, fixed in change request #12.' } },
  postCommentInChangeRequest: { body: { markdown: 'Can we add an example here?' }, page: PAGE },
  updateCommentInChangeRequest: { addedReactions: ['👍'] },
  postCommentReplyInChangeRequest: { body: { markdown: 'Added one below.' } },
  updateCommentReplyInChangeRequest: { body: { markdown: 'Added one below the table.' } },

  // change requests
  createChangeRequest: { subject: 'Document the v2 endpoints', status: 'draft' },
  updateChangeRequestById: { subject: 'Document the v2 endpoints', status: 'open' },
  updateChangeRequestContent: {
    changes: [
      {
        operation: 'insert_page',
        title: 'Rate limits',
        document: { markdown: '# Rate limits\n\nEach token may send 600 requests a minute.' },
      },
      { operation: 'update_page', page: PAGE, title: 'Quickstart' },
    ],
  },
  requestReviewersForChangeRequest: { users: [USER] },
  submitChangeRequestReview: { status: 'approved', comment: { markdown: 'Looks good.' } },
  updateChangeRequest: { resolutions: [{ pageId: PAGE, kind: 'document', keep: 'changeRequest' }] },

  // sites
  createSite: { title: 'Acme Developer Docs', spaces: [SPACE], visibility: 'public' },
  updateSiteById: { title: 'Acme Developers', basename: 'developers' },
  updateSiteAdaptiveSchema: {
    jsonSchema: {
      type: 'object',
      properties: { plan: { type: 'string', enum: ['free', 'pro'] } },
      additionalProperties: false,
    },
  },
  updateSiteCustomizationById: {
    styling: { primaryColor: { light: '#346DDB', dark: '#346DDB' } },
    feedback: { enabled: true },
  },
  overrideSiteSpaceCustomizationById: { feedback: { enabled: false } },

  // imports: a website, or files uploaded with generateStorageUploadURL (kind import_file).
  startImportRun: {
    source: { type: 'website', url: 'https://docs.acme.example/' },
    target: { space: SPACE },
    enhance: false,
  },

  // custom fonts: upload each file (generateStorageUploadURL, then a PUT to its url), then
  // name the keys.
  generateStorageUploadURL: {
    file: { name: 'BrandSans-Regular.woff2', type: 'font/woff2', size: 48212 },
    kind: 'customization_font',
  },
  createCustomFont: {
    fontFamily: 'Brand Sans',
    fontFaces: [
      { weight: 400, storageKey: `uploads/${ORG}/customization_font/Qm3vX8kLp2Rt5Wz9Yc1d` },
      { weight: 700, storageKey: `uploads/${ORG}/customization_font/Hn7bV2cXq4Ls8Kd0Pf6g` },
    ],
  },
  updateCustomFont: {
    fontFamily: 'Brand Sans Text',
    fontFaces: [
      { weight: 700, storageKey: `uploads/${ORG}/customization_font/Zt1yU5iO9pA3sD7fG2hJ` },
      { weight: 900, storageKey: null },
    ],
  },
  trackEventsInSiteById: {
    events: [
      {
        type: 'page_view',
        location: { url: 'https://docs.acme.example/guides/quickstart', page: PAGE },
      },
    ],
  },
  aggregateSiteEvents: {
    range: 'last7Days',
    select: [{ column: 'eventsCount' }],
    groupBy: [{ column: 'datetime', interval: 'day' }],
  },
  updateSitePublishingAuthById: {
    backend: 'custom',
    fallbackURL: 'https://auth.acme.example/docs-login',
  },
  createSiteRedirect: {
    source: '/old/quickstart',
    destination: { kind: 'site-page', siteSpaceId: SITE_SPACE, pageId: PAGE },
    permanent: true,
  },
  bulkUpsertSiteRedirects: {
    redirects: [
      {
        source: '/legacy/*',
        captureWildcard: true,
        destination: { kind: 'external', url: 'https://legacy.acme.example' },
      },
      { source: '/old/quickstart', intent: 'publish' },
    ],
  },
  updateSiteRedirectById: { permanent: false },
  searchSiteContent: { query: 'rate limits' },
  getComputedDocument: {
    source: { type: 'integration:changelog:releases', props: { limit: 5 } },
    seed: 'releases-page',
  },
  getComputedRevision: {
    source: { type: 'integration:changelog:releases', props: { limit: 5 } },
    seed: 'releases',
  },
  streamAskInSite: {
    question: 'How do I raise my rate limit?',
    scope: { mode: 'default', currentSiteSpace: SITE_SPACE },
  },
  streamAIResponseInSite: {
    input: [{ role: 'user', content: 'How do I raise my rate limit?' }],
    model: 'reasoning-low',
    channel: { type: 'site' },
  },
  submitAgentFeedbackToSite: {
    reportedBy: { model: 'example-model', correlationId: 'a3c1f7e2-5b8d-4e0f-9a6b-2d4c8e1f3a5b' },
    subject: { kind: 'documentation', url: 'https://docs.acme.example/guides/rate-limits' },
    feedback: {
      category: 'documentation',
      severity: 'medium',
      summary: 'The page does not say how to raise the rate limit.',
    },
  },
  submitSiteAgentFeedback: {
    feedback: 'The rate limits page lists limits of the old plans.',
    url: 'https://docs.acme.example/guides/rate-limits',
    spaceId: SPACE,
    pageId: PAGE,
    source: 'mcp',
  },
  updateSiteAgentSettingsById: {
    scans: { topics: 'never' },
    findings: { changeRequests: 'never' },
    editing: { customInstructions: paragraph('Write in the second person.') },
  },
  askInOrganization: { query: 'How do I rotate an API token?' },
  addSectionGroupToSite: { title: 'Products', sections: [SITE_SECTION] },
  updateSiteSectionGroupById: { title: 'Our products' },
  duplicateSiteSpace: { draft: false },
  addExternalLinkToSite: { title: 'Status', url: 'https://status.example.com', icon: 'signal' },
  updateSiteExternalLinkById: { title: 'Service status', draft: false },
  moveSiteSectionGroup: {
    position: { after: { type: 'site-section-group', id: 'sitesg_A1s2D3f4G5h6J7k8' } },
  },
  addSectionToGroup: { sectionId: SITE_SECTION },
  addSectionToSite: { spaceId: SPACE, title: 'API reference' },
  updateSiteSectionById: { title: 'API reference', path: 'api' },
  moveSiteSection: {
    position: { before: { type: 'site-section', siteSection: 'sitesc_Z9x8C7v6B5n4M3l2' } },
  },
  createSiteShareLink: { name: 'Beta testers' },
  updateSiteShareLinkById: { active: false },
  addSpaceToSite: { spaceId: SPACE },
  updateSiteSpaceById: { path: 'v2' },
  moveSiteSpace: {
    position: { after: { type: 'site-space', siteSpace: 'sitesp_P0o9I8u7Y6t5R4e3' } },
  },
  sortSiteStructure: {
    item: { type: 'site-section', id: SITE_SECTION },
    position: { before: { type: 'site-section', id: 'sitesc_Z9x8C7v6B5n4M3l2' } },
  },
  resolvePublishedContentByUrl: { url: 'https://docs.acme.example/guides/quickstart' },

  // translations, openapi
  createTranslation: { language: 'fr', source: { space: SPACE, language: 'en' } },
  updateTranslation: { instructions: paragraph('Keep product names in English.') },
  updateGlossaryEntries: {
    operations: [
      { type: 'insert', translations: { en: 'space', fr: 'espace', de: 'Bereich' } },
      { type: 'update', id: 'glossaryEntryId', translations: { en: 'site', fr: 'site' } },
      { type: 'delete', id: 'otherGlossaryEntryId' },
    ],
  },
  createOpenAPISpec: {
    slug: 'payments-api',
    source: { url: 'https://api.acme.example/openapi.json' },
    visibility: 'private',
  },
  updateOpenAPISpecBySlug: { visibility: 'public' },
  createOrUpdateOpenAPISpecBySlug: {
    source: { text: 'openapi: 3.0.3\ninfo:\n  title: Payments\n  version: 1.0.0\npaths: {}\n' },
  },

  // webhooks
  createWebhook: {
    url: 'https://hooks.acme.example/bindery',
    events: ['space_content_updated', 'change_request_merged'],
    spaces: [SPACE],
  },
  updateWebhook: { active: false },
  publishIntegration: {
    runtime: 'v2',
    title: 'Status badges',
    description: 'Shows the status of a service in a block.',
    scopes: ['space:content:read'],
    categories: ['content'],
    blocks: [
      { id: 'status-badge', title: 'Status badge', urlUnfurl: ['https://status.acme.example/*'] },
    ],
    configurations: {
      account: {
        properties: { api_key: { title: 'API key', type: 'string' } },
        required: ['api_key'],
      },
    },
    visibility: 'private',
    organization: ORG,
    script: 'var s={async fetch(){return new Response("ok")}};export{s as default};',
  },
  queueIntegrationTask: { task: { sync: 'handbook', page: 2 }, schedule: 60 },
  renderIntegrationUIWithPost: {
    componentId: 'status-badge',
    props: { service: 'api' },
    context: { type: 'document', spaceId: SPACE, editable: true, theme: 'light' },
  },
  setIntegrationDevelopmentMode: { tunnelUrl: 'https://quiet-river.trycloudflare.com', all: false },
  installIntegration: { organization: ORG },
  updateIntegrationInstallation: {
    configuration: { api_key: 'sk_live_4f9a' },
    externalIds: ['acme-workspace-42'],
    space_selection: 'selected',
    site_selection: 'all',
  },
  installIntegrationOnSpace: { space: SPACE },
  updateIntegrationSpaceInstallation: { configuration: {}, externalIds: ['acme-project-7'] },
  installIntegrationOnSite: { siteId: 'site_V7b9N1m3K5j7H9g1' },
  updateIntegrationSiteInstallation: { configuration: {}, externalIds: ['acme-property-3'] },
};
