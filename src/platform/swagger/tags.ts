/** A group of operations in the API document and the Swagger UI. */
export interface ApiTag {
  name: string;
  description: string;
  /** A group of Bindery's own operations, which GitBook's API does not have. */
  binderyOnly?: true;
}

/**
 * Bindery's description of each of GitBook's tags that it serves, in the order of GitBook's
 * document (tags GitBook uses without declaring them sit next to their neighbours).
 */
const GITBOOK_TAGS: ApiTag[] = [
  {
    name: 'organizations',
    description:
      'The top of the tree: an organization owns its members, teams, collections, spaces and sites. Create one, read it, change its settings and default role.',
  },
  {
    name: 'organization-members',
    description:
      "The people of an organization and their role in it: list, read, change a role, remove, and a member's teams and activity.",
  },
  {
    name: 'organization-invites',
    description:
      'Bringing people in: invite by email, share invite links that give a role (or access to one space or collection), and join by email domain.',
  },
  {
    name: 'organization-ask',
    description:
      "Questions answered from the spaces a member may read by the operator's model (AI_API_URL), whole or streamed as server-sent events, and questions to suggest.",
  },
  {
    name: 'sites',
    description:
      'Docs sites: create one from spaces, publish or unpublish it, change its settings, its adaptive-content schema and visitor analytics, and search its published content.',
  },
  {
    name: 'site-share-links',
    description: 'Secret links that let someone read a site published with share-link visibility.',
  },
  {
    name: 'site-structure',
    description: "The order of a site's sections, section groups and spaces.",
  },
  {
    name: 'site-publishing-auth',
    description:
      'Visitor authentication: the backend that signs in the readers of a site published with visitor-auth visibility.',
  },
  {
    name: 'site-preview',
    description:
      "A one-hour URL of the renderer that shows a site as published, for a visitor's claims, published or not.",
  },
  {
    name: 'site-customization',
    description:
      'How a site looks and behaves (theme, header, footer, feedback, ...), for the whole site and overridden per site space.',
  },
  {
    name: 'site-agent-settings',
    description:
      "A site's settings for AI agents (topic scans, findings, editing instructions), stored as given.",
  },
  {
    name: 'site-agent-feedback',
    description:
      'Feedback AI agents give a site about a tool, an endpoint, a page or an answer of the site, recorded as given.',
  },
  {
    name: 'site-spaces',
    description: 'The spaces a site publishes, each at its own path, with optional conditions.',
  },
  {
    name: 'site-sections',
    description: "A site's top-level sections (its tabs), each showing one or more spaces.",
  },
  {
    name: 'site-section-groups',
    description: 'Groups of sections shown together in the site navigation.',
  },
  {
    name: 'site-external-links',
    description:
      "Links to other websites in a site's navigation, among its sections and groups; drafts stay unpublished.",
  },
  {
    name: 'site-redirects',
    description:
      'Redirects from old paths of a site to pages, spaces, sections or other addresses; drafts go live when published.',
  },
  {
    name: 'site-permissions',
    description:
      "Roles given to users and teams on a site: they raise a member's role on the site (its settings, structure and published face) above its organization role.",
  },
  {
    name: 'site-users',
    description: 'Roles given to individual users on a site, and everyone who can reach it.',
  },
  {
    name: 'site-insights',
    description: 'Visitor events of a site (page views, searches, feedback) and their aggregates.',
  },
  {
    name: 'site-ask',
    description:
      "Questions answered from a site's pages by the operator's model (AI_API_URL), streamed as server-sent events, and questions to suggest.",
  },
  {
    name: 'site-questions',
    description:
      "What visitors asked a site's AI answers: each question, its answers, the pages they drew on, their feedback and counts, kept AI_QUESTIONS_RETENTION_DAYS.",
  },
  {
    name: 'collections',
    description:
      'Folders of spaces (and of other collections) inside an organization: create, rename, move, transfer, delete.',
  },
  {
    name: 'collection-users',
    description: 'Roles given to individual users on a collection, inherited by what it contains.',
  },
  {
    name: 'collection-teams',
    description: 'Roles given to teams on a collection, inherited by what it contains.',
  },
  {
    name: 'spaces',
    description:
      'Spaces hold one body of documentation: create, update, move, duplicate, delete and restore them, and apply templates.',
  },
  {
    name: 'space-content',
    description:
      "Reading a space's content: pages, files and their links, in the current revision or any earlier one, as documents or markdown.",
  },
  {
    name: 'space-comments',
    description: 'Comments on the pages of a space, their replies and reactions.',
  },
  {
    name: 'space-embeds',
    description: 'Previews of the external links embedded in a page.',
  },
  {
    name: 'space-users',
    description: 'Roles given to individual users on a space.',
  },
  {
    name: 'space-teams',
    description: 'Roles given to teams on a space.',
  },
  {
    name: 'space-integrations',
    description:
      'What is installed on a space: the integrations and the blocks they add to its editor.',
  },
  {
    name: 'space-git',
    description:
      'Git import and export of a space, in the GitBook Git Sync layout (SUMMARY.md and one markdown file per page).',
  },
  {
    name: 'change-requests',
    description:
      'Proposed edits to a space, made apart from its live content and merged when ready: open, update, merge, and bring up to date with the primary content.',
  },
  {
    name: 'change-request-content',
    description:
      'Reading and writing the content of a change request: its pages, files, changes against the primary content, and edits.',
  },
  {
    name: 'change-request-contributors',
    description: 'The people who edited a change request.',
  },
  {
    name: 'change-request-reviewers',
    description: 'Asking people for a review of a change request, and who was asked.',
  },
  {
    name: 'change-requests-reviews',
    description: 'Reviews of a change request: approve it or request changes.',
  },
  {
    name: 'change-request-comments',
    description: 'Comments on the pages of a change request, their replies and reactions.',
  },
  {
    name: 'translations',
    description:
      'Machine translations of a space into another language, kept in a space of their own and run again on demand.',
  },
  {
    name: 'imports',
    description:
      'Imports of content from a website or uploaded files (Markdown, HTML, Word, a Confluence or Notion export) into a change request of a space, run in the background.',
  },
  {
    name: 'glossary',
    description:
      "The organization's translation glossary: terms and how each language says them, applied by every translation run.",
  },
  {
    name: 'integrations',
    description:
      "GitBook's integration platform: integrations published to the instance (what `gitbook publish` and `gitbook dev` call) and the catalogue.",
  },
  {
    name: 'urls',
    description:
      'Resolving an address: which organization, space, page or published content a URL points to.',
  },
  {
    name: 'openapi',
    description:
      'OpenAPI specifications kept in an organization, from a URL or uploaded text, processed in the background and usable in pages.',
  },
  {
    name: 'openapi-versions',
    description: 'The versions of an OpenAPI specification, one per change of its source.',
  },
  {
    name: 'conversations',
    description: 'Support conversations sent in by an organization, and the issues found in them.',
  },
  {
    name: 'agents',
    description:
      'Clusters of related issues found in the support conversations of an organization.',
  },
  {
    name: 'custom-fonts',
    description:
      "An organization's own fonts for its sites: a family and a file per weight (WOFF2, WOFF, TrueType, OpenType), named in a site's customization (`styling.font`).",
  },
  {
    name: 'billing',
    description:
      "What an organization's AI answers used of the model: tokens by day, week, month or year and feature.",
  },
  {
    name: 'users',
    description: 'The authenticated user, and users by their ID.',
  },
  {
    name: 'teams',
    description: 'Teams of an organization, used to give roles on spaces and collections.',
  },
  {
    name: 'team-members',
    description: 'The members of a team and their role in it.',
  },
  {
    name: 'sso',
    description:
      "Single sign-on: an organization's SAML identity providers and making a member an SSO member.",
  },
  {
    name: 'storage',
    description:
      'Signed URLs to upload files to the organization: the files of custom fonts, named then by their key.',
  },
  {
    name: 'custom-hostnames',
    description:
      "Sites' custom hostnames: whether their DNS points at Bindery (a CNAME, or a TXT record), which the published lookup needs before it serves a site there.",
  },
  {
    name: 'system',
    description: "What the API is: Bindery's version and when it was built.",
  },
];

/** Groups of Bindery's own operations, after GitBook's. */
export const BINDERY_TAGS: ApiTag[] = [
  {
    name: 'api-tokens',
    description: 'Bindery only: the API tokens of the authenticated user. Create, list, revoke.',
  },
  {
    name: 'admin',
    description:
      "Bindery only: the instance administrator's API (the admin token): create, disable and list users, and manage their API tokens.",
  },
  {
    name: 'invitations',
    description:
      'Bindery only: the email invitations of an organization (list, revoke) and the invitation page that accepts one.',
  },
  {
    name: 'sign-in',
    description:
      "Bindery only: signing in through an organization's SAML identity provider, and exchanging the sign-in code for an API token.",
  },
  {
    name: 'webhooks',
    description:
      "Bindery only: an organization's webhooks, signed deliveries of its events, and their delivery history.",
  },
  {
    name: 'downloads',
    description:
      "Bindery only: files by digest (signed links), PDF exports of spaces and change requests, public OpenAPI specifications, integrations' images and the scripts they inject in published sites, and the files of custom fonts.",
  },
  {
    name: 'uploads',
    description:
      'Bindery only: where the signed URLs of `generateStorageUploadURL` take the bytes of a file (what a bucket does for GitBook).',
  },
  {
    name: 'changes',
    description:
      'Bindery only: differences of a page between revisions, and the conflicts of a change request with the primary content.',
  },
];

export const API_TAGS: readonly ApiTag[] = [
  ...GITBOOK_TAGS,
  ...BINDERY_TAGS.map((tag) => ({ ...tag, binderyOnly: true as const })),
];
