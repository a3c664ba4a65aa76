import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectConforms, GITBOOK_0202, listGitbookOperationIds } from '../helpers/conformance';
import { createTestApp, TestApp } from '../helpers/app';

/** GitBook operations Bindery serves from specs newer than 0.146.0 (see REFERENCE.md §16). */
const NEWER_THAN_0146 = new Set([
  'createOrganization',
  'getLatestOpenAPISpecVersionContentRaw',
  'updateChangeRequestContent',
  'getSitePublishingAuthById',
  'updateSitePublishingAuthById',
  'regenerateSitePublishingAuthById',
  'trackEventsInSiteById',
  'aggregateSiteEvents',
  'bulkUpsertSiteRedirects',
  'listRevisionPageMetaLinks',
  'listSpacePageMetaLinks',
  'listChangeRequestPageMetaLinks',
  'getChangeRequestChanges',
  'getRevisionSemanticChanges',
  'listOrganizationAuditEvents',
  'getOrganizationAuditEvent',
  'listOrganizationAuditEventActions',
  'listSiteQuestions',
  'getSiteQuestionById',
  'getOrganizationAIUsage',
  'listSiteQuestionSources',
  'getSiteQuestionStats',
  'listSiteQuestionAnswers',
  'getSiteQuestionAnswerById',
  'getSiteQuestionAnswerThreadById',
  'listSiteQuestionAnswerSources',
  'submitSiteAgentFeedback',
  'submitAgentFeedbackToSite',
  'getSiteAgentSettingsById',
  'updateSiteAgentSettingsById',
  'listImportRuns',
  'getImportRun',
  'inviteToSite',
  'listUserPermissionsInSite',
  'updateUserPermissionInSite',
  'removeUserFromSite',
  'listTeamPermissionsInSite',
  'updateTeamPermissionInSite',
  'removeTeamFromSite',
  'addExternalLinkToSite',
  'updateSiteExternalLinkById',
  'deleteSiteExternalLinkById',
  'duplicateSiteSpace',
  'getSitePublishingPreviewById',
]);
/**
 * Bindery's own operations: the signed downloads that files' `downloadURL`s and the PDF `url`s
 * of change requests and spaces point at, the published document of a public OpenAPI
 * specification, the block-level diffs of a page (of a change request, of a revision), a
 * user's own API tokens, the icons and preview images of integrations, the scripts they
 * inject in published sites, the files of custom fonts and the upload URLs of storage files.
 */
const BINDERY_ONLY = new Set([
  'downloadFile',
  'getIntegrationImage',
  'getIntegrationSiteScript',
  'getCustomFontFile',
  'uploadStorageFile',
  'downloadChangeRequestPDF',
  'downloadSpacePDF',
  'getChangeRequestConflicts',
  'getPublishedOpenAPISpec',
  'getChangeRequestPageDiff',
  'getRevisionPageDiff',
  'createUserToken',
  'listUserTokens',
  'revokeUserToken',
  'createWebhook',
  'listWebhooks',
  'getWebhook',
  'updateWebhook',
  'deleteWebhook',
  'rotateWebhookSecret',
  'listWebhookDeliveries',
  'getWebhookDelivery',
  'redeliverWebhookDelivery',
  'getSamlServiceProviderMetadata',
  'startSamlSignIn',
  'consumeSamlAssertion',
  'exchangeSsoSignInCode',
  'listOrganizationEmailInvites',
  'revokeOrganizationEmailInvite',
  'getInvitationPage',
  'acceptInvitation',
]);

describe('health and API document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('GET /health is the process alone (liveness), GET /health/ready asks the database', async () => {
    const live = await t.anonymous.get('/health').expect(200);
    expect(live.body).toEqual(expect.objectContaining({ status: 'ok' }));
    expect(live.body.details).toEqual({ process: { status: 'up' } });
    const ready = await t.anonymous.get('/health/ready').expect(200);
    expect(ready.body.details.database.status).toBe('up');
  });

  it("answers GitBook's getApiInformation: the package's version and when the code was built", async () => {
    const user = await t.factories.user();
    const res = await user.client.get('/v1').expect(200);
    expectConforms(res, 'getApiInformation', GITBOOK_0202);
    const { version } = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as {
      version: string;
    };
    expect(res.body).toEqual({ version, build: expect.any(String) as string });
    expect(new Date(res.body.build as string).toISOString()).toBe(res.body.build);
    const anonymous = await t.anonymous.get('/v1').expect(401);
    expect(anonymous.body).toEqual({ error: { code: 401, message: expect.any(String) as string } });
  });

  it('serves the Swagger UI at /docs', async () => {
    const res = await t.anonymous.get('/docs/').expect(200);
    expect(res.text).toContain('swagger-ui');
  });

  it('serves the document at /docs-json with bearer auth and GitBook operationIds', async () => {
    const res = await t.anonymous.get('/docs-json').expect(200);
    const document = res.body;
    expect(document.components.securitySchemes.user).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    );
    const operations = Object.values(document.paths).flatMap((item) =>
      Object.values(item as object),
    );
    const ids = operations.map((op: { operationId: string }) => op.operationId);
    expect(ids).toEqual(
      expect.arrayContaining(['getAuthenticatedUser', 'getUserById', 'getOrganizationById']),
    );
    // As GitBook's: a user's token, or an integration's script (its own or an installation's).
    expect(document.paths['/v1/orgs/{organizationId}'].get.security).toEqual([
      { user: [] },
      { integration: [] },
      { 'integration-installation': [] },
    ]);
  });

  it("uses GitBook's operationId for every GitBook operation it serves", async () => {
    const res = await t.anonymous.get('/docs-json').expect(200);
    const gitbook = new Set(listGitbookOperationIds());
    const paths = res.body.paths as Record<string, Record<string, { operationId: string }>>;
    const unknown = Object.values(paths)
      .flatMap((item) => Object.values(item).map((operation) => operation.operationId))
      .filter(
        (id) =>
          !gitbook.has(id) &&
          !id.startsWith('admin') &&
          !NEWER_THAN_0146.has(id) &&
          !BINDERY_ONLY.has(id),
      );
    expect(unknown).toEqual([]);
  });

  it('declares every path parameter once on every operation', async () => {
    const res = await t.anonymous.get('/docs-json').expect(200);
    type Operation = { parameters?: { name: string; in: string }[] };
    const paths = res.body.paths as Record<string, Record<string, Operation>>;
    const problems = Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, operation]) => {
        const declared = (operation.parameters ?? [])
          .filter((parameter) => parameter.in === 'path')
          .map((parameter) => parameter.name)
          .sort();
        const expected = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
        return declared.join() === expected.join()
          ? []
          : [`${method.toUpperCase()} ${path}: ${declared.join() || 'none'}`];
      }),
    );
    expect(problems).toEqual([]);
  });

  it('matches the committed openapi/bindery.openapi.json paths', async () => {
    const res = await t.anonymous.get('/docs-json').expect(200);
    const committed = JSON.parse(
      readFileSync(join(__dirname, '../../openapi/bindery.openapi.json'), 'utf8'),
    );
    expect(Object.keys(res.body.paths).sort()).toEqual(Object.keys(committed.paths).sort());
  });
});
