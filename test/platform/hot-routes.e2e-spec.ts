import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { routePipeline } from '../../src/platform/http/route-pipeline';
import { createTestApp, TestApp } from '../helpers/app';

/**
 * What runs for a request on the hottest routes: Express middleware, guards, interceptors and
 * pipes, read from the application's own router and route metadata. Every step here is paid by
 * every request on that route, so a new one is a decision: this test fails until
 * hot-routes.json says it (`UPDATE_HOT_ROUTES=1` rewrites the file; review its diff).
 */
const HOT_OPERATIONS = [
  'getOrganizationById',
  'getSpaceById',
  'getChangeRequestById',
  'getPageByPath',
  'listSpacesInOrganizationById',
  'getPublishedContentByUrl',
  'getPublishedContentSite',
  'getRevisionById',
  'createSpace',
];

const COMMITTED = join(__dirname, 'hot-routes.json');

describe('Hot routes: what each request runs', () => {
  let t: TestApp;

  beforeAll(async () => {
    // As the application runs outside tests: without the email privacy's check.
    t = await createTestApp({}, { checkEmailPrivacy: false });
  });

  afterAll(async () => {
    await t.close();
  });

  it('runs exactly the committed steps on each hot route', () => {
    const pipelines = HOT_OPERATIONS.map((id) => routePipeline(t.bindery.app, id));
    const current = `${JSON.stringify(pipelines, null, 2)}\n`;
    if (process.env.UPDATE_HOT_ROUTES === '1') writeFileSync(COMMITTED, current);
    expect(JSON.parse(current)).toEqual(JSON.parse(readFileSync(COMMITTED, 'utf8')));
  });

  it('runs no interceptor on a read of one resource, the audit only on a write', () => {
    const read = routePipeline(t.bindery.app, 'getOrganizationById');
    expect(read.interceptors).toEqual([]);
    const write = routePipeline(t.bindery.app, 'createSpace');
    expect(write.interceptors).toEqual(['RequestBodyInterceptor', 'AuditInterceptor']);
    // A read whose answer holds users keeps the email privacy.
    expect(routePipeline(t.bindery.app, 'getChangeRequestById').interceptors).toContain(
      'EmailPrivacyInterceptor',
    );
  });
});
