import { IntegrationsRepository } from '../../src/integrations/integrations.repository';
import { IntegrationTokens } from '../../src/platform/auth/integration-tokens';
import { TEST_ADMIN_TOKEN, type TestApp } from './app';
import { createCustomFont } from './custom-fonts';
import { insertPage } from './content';
import type { TestOrganization, TestUser } from './factories';
import type { FuzzOperation } from './fuzz';

/**
 * An organization holding one of everything a route can name (a space with change requests,
 * comments, files; a site with sections, groups, share links, redirects; a team, an invite, a
 * SAML provider, an OpenAPI specification, a translation, a conversation, an API token, a
 * webhook, a custom font), and the value of every path parameter of the API document for it.
 * The hostile-input and the token-scope tests send every operation at it.
 */
export interface Fixture {
  org: TestOrganization;
  owner: TestUser;
  values: Record<string, string>;
  /** Values that depend on where the parameter sits (a comment of a change request). */
  changeRequestComment: { commentId: string; commentReplyId: string };
  /** The token of the fixture's integration itself, for its own operations (its tasks). */
  integrationToken: string;
}

/**
 * The token a hostile or incomplete request is sent with: the fixture's owner's, the instance
 * administrator's for the admin API, the integration's for its own operations; none for a
 * public route.
 */
export function fixtureToken(op: FuzzOperation, fixture: Fixture): string | undefined {
  if (op.access === 'public') return undefined;
  if (op.access === 'instance administrator') return TEST_ADMIN_TOKEN;
  if (op.access.includes(', only integration')) return fixture.integrationToken;
  return fixture.owner.token;
}

/** The operation's path with the fixture's values, or `override`'s for one parameter. */
export function pathOf(op: FuzzOperation, fixture: Fixture, override?: [string, string]): string {
  const inChangeRequest = op.template.includes('/change-requests/{changeRequestId}/comments');
  return op.template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (override && override[0] === name) return override[1];
    const value =
      inChangeRequest && name in fixture.changeRequestComment
        ? fixture.changeRequestComment[name as keyof Fixture['changeRequestComment']]
        : fixture.values[name];
    if (value === undefined) throw new Error(`No fixture value for {${name}} (${op.operationId})`);
    return encodeURIComponent(value);
  });
}

/** Builds the fixture in a new organization (about 40 requests). */
export async function buildFixture(t: TestApp): Promise<Fixture> {
  const org = await t.factories.organization();
  const owner = org.owner;
  const client = owner.client;
  const base = `/v1/orgs/${org.id}`;
  const target = await t.factories.member(org, 'edit');

  const team = await client.put(`${base}/teams`, { title: 'Writers' }).expect(201);
  const saml = await client
    .post(`${base}/saml`, { label: 'IdP', ssoURL: 'https://idp.example.com/sso' })
    .expect(201);
  const invite = await client.post(`${base}/link-invites`, { role: 'read' }).expect(201);
  const collection = await t.factories.collection(org, { title: 'Guides' });
  const space = await t.factories.space(org, { title: 'Handbook' });
  const spacePath = `/v1/spaces/${space.id}`;

  // Change request 1 brings a page and a file into the primary; number 2 stays open.
  await t.factories.changeRequest(org, space.id, {
    subject: 'Start',
    changes: [
      insertPage('Guide', '# Guide\n\nHi.'),
      {
        operation: 'insert_files',
        files: [
          {
            name: 'notes.txt',
            contentType: 'text/plain',
            base64: Buffer.from('Notes').toString('base64'),
          },
        ],
      },
    ],
    merge: true,
  });
  await t.factories.changeRequest(org, space.id, {
    subject: 'Open',
    changes: [insertPage('Draft', 'Draft.')],
  });
  const review = await (
    await t.factories.asMember(org, 'review')
  )
    .post(`${spacePath}/change-requests/2/reviews`, { status: 'approved' })
    .expect(201);
  const content = await client.get(`${spacePath}/content`).expect(200);
  const page = (content.body.pages as { id: string; path: string; title: string }[]).find(
    (p) => p.title === 'Guide',
  );
  const files = await client.get(`${spacePath}/content/files`).expect(200);

  const comment = await t.factories.comment(org, space.id, { body: { markdown: 'Hi' } });
  const reply = await client
    .post(`${spacePath}/comments/${comment.id}/replies`, { body: { markdown: 'Hello' } })
    .expect(201);
  const crComment = await t.factories.comment(org, space.id, {
    changeRequest: '2',
    body: { markdown: 'Hi' },
  });
  const crReply = await client
    .post(`${spacePath}/change-requests/2/comments/${crComment.id}/replies`, {
      body: { markdown: 'Hello' },
    })
    .expect(201);

  const reference = await t.factories.space(org, { title: 'Reference' });
  const site = await t.factories.site(org, { title: 'Docs' });
  const section = await t.factories.siteSection(org, site.id, { spaceId: space.id });
  const grouped = await t.factories.siteSection(org, site.id, { spaceId: reference.id });
  const group = await client
    .post(`${base}/sites/${site.id}/section-groups`, { title: 'Group', sections: [grouped.id] })
    .expect(201);
  const externalLink = await client
    .post(`${base}/sites/${site.id}/external-links`, {
      title: 'Status',
      url: 'https://status.example.com',
      parent: group.body.id,
    })
    .expect(201);
  const shareLink = await t.factories.shareLink(org, site.id, { name: 'Partners' });
  const redirect = await client
    .post(`${base}/sites/${site.id}/redirects`, {
      source: '/old',
      destination: { kind: 'external', url: 'https://example.com/new' },
    })
    .expect(201);

  // The site's custom hostname (pending: no DNS answers for it).
  const hostname = `docs-${org.id.toLowerCase().replace(/[^a-z0-9]/g, '')}.example.com`;
  await client.patch(`${base}/sites/${site.id}`, { hostname }).expect(200);

  const apiToken = await client.post('/v1/user/tokens', { label: 'Fuzz' }).expect(201);

  const spec = await t.factories.openAPISpec(org, {
    slug: 'petstore',
    text: JSON.stringify({ openapi: '3.0.3', info: { title: 'P', version: '1' } }),
  });
  const translation = await t.factories.translation(org, { space: space.id });
  // Inactive, at a port nothing listens on: nothing is ever sent to it.
  const webhook = await client
    .post(`${base}/webhooks`, { url: 'http://127.0.0.1:9/', events: ['*'], active: false })
    .expect(201);
  await client
    .post(`${base}/conversations`, {
      id: 'conversation-1',
      parts: [{ type: 'message', role: 'user', body: 'The search box finds nothing.' }],
    })
    .expect(204);

  await client
    .put(`${base}/translations-glossary`, {
      operations: [{ type: 'insert', translations: { en: 'workspace', fr: 'espace de travail' } }],
    })
    .expect(204);
  const glossary = await client.get(`${base}/translations-glossary`).expect(200);
  const customFont = await createCustomFont(client, client, org.id, 'Fuzz Sans');

  // A private integration of the organization, installed there and on the space and the site.
  const integrationName = `fuzz-${org.id}`.toLowerCase().replace(/[^a-z0-9-]/g, '-');
  await client
    .post(`/v1/integrations/${integrationName}`, {
      title: 'Fuzz',
      description: '',
      scopes: [],
      organization: org.id,
      script: 'export default {};',
    })
    .expect(200);
  const installation = await client
    .post(`/v1/integrations/${integrationName}/installations`, { organization: org.id })
    .expect(201);
  const installed = `/v1/integrations/${integrationName}/installations/${installation.body.id}`;
  const integration = (await t.bindery.app
    .get(IntegrationsRepository)
    .findByName(integrationName))!;
  const integrationToken = t.bindery.app
    .get(IntegrationTokens)
    .sign({ kind: 'integration', integration: integration.id }).token;
  await client.post(`${installed}/spaces`, { space: space.id }).expect(201);
  await client.post(`${installed}/sites`, { siteId: site.id }).expect(201);

  // The newest of the writes above, as the audit log recorded it.
  const auditEvents = await client.get(`${base}/audit-events?limit=1`).expect(200);

  return {
    org,
    owner,
    integrationToken,
    changeRequestComment: { commentId: crComment.id, commentReplyId: crReply.body.id },
    values: {
      organizationId: org.id,
      userId: target.id,
      collectionId: collection.id,
      teamId: team.body.id,
      emailDomain: 'example.com',
      digest: 'a'.repeat(64),
      specSlug: spec.slug,
      versionId: 'fuzzVersion0000000000',
      clusterId: 'fuzzCluster000000000',
      issueId: 'fuzzIssue00000000000',
      conversationId: 'conversation-1',
      inviteId: invite.body.id,
      samlProviderId: saml.body.id,
      siteId: site.id,
      hostname,
      siteSectionGroupId: group.body.id,
      siteExternalLinkId: externalLink.body.id,
      siteSectionId: section.id,
      shareLinkId: shareLink.id,
      siteRedirectId: redirect.body.id,
      // No question was asked of the fixture's site: these name nothing (404).
      siteQuestionId: 'fuzzQuestion00000000',
      siteQuestionAnswerId: 'fuzzAnswer0000000000',
      tokenId: apiToken.body.id,
      auditEventId: auditEvents.body.items[0].id,
      reusableContentId: 'fuzzReusable00000000',
      // No document of the space has this id (a document's id is its hash): 404.
      documentId: 'fuzzDocument00000000',
      siteSpaceId: section.siteSpaces[0].id,
      translationId: translation.id,
      glossaryEntryId: glossary.body.items[0].id,
      fontId: customFont.id,
      // No import was started in the fixture's organization: this names nothing (404).
      importRunId: 'fuzzImportRun0000000',
      // An upload URL and a font file that name nothing: the upload's signature is refused
      // (403), the file is not there (404).
      kind: 'customization_font',
      uploadId: 'fuzzUpload0000000000',
      file: 'fuzzFile000000000000.woff2',
      webhookId: webhook.body.id,
      integrationName,
      installationId: installation.body.id,
      // No event was sent to the fixture's integration: this names nothing (404).
      eventId: 'fuzzEvent00000000000',
      deliveryId: 'fuzzDelivery00000000',
      // A job that does not exist: the admin's retry answers 404.
      jobId: '00000000-0000-4000-8000-000000000000',
      changeRequestId: '2',
      spaceId: space.id,
      commentId: comment.id,
      commentReplyId: reply.body.id,
      fileId: files.body.items[0].id,
      pageId: page?.id ?? 'fuzzPage000000000000',
      pagePath: page?.path ?? 'guide',
      reviewId: review.body.id,
      revisionId: content.body.id,
    },
  };
}
