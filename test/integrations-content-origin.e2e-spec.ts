import { createTestApp, TestApp } from './helpers/app';
import { expectConforms, GITBOOK_0202 } from './helpers/conformance';

const INTEGRATIONS_HOST = 'integrations.bindery.test';

/**
 * Integrations' own origin (INTEGRATIONS_URL, as GitBook's integrations host): their public
 * endpoints are given there, and the pages they serve there run as that origin, which sites
 * frame (a block's web frame), under the manifest's content security policy; the same request
 * on the API's origin is sandboxed and not framed.
 */
describe('integrations: their own origin', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ INTEGRATIONS_URL: `http://${INTEGRATIONS_HOST}` });
  });
  afterAll(() => t.close());

  const SCRIPT = `
    export default {
      async fetch() {
        return new Response('<!doctype html><p>frame</p>', {
          headers: { 'content-type': 'text/html', 'set-cookie': 'a=b' },
        });
      },
    };`;

  it('gives the endpoints there, and serves their pages as that origin, framed, under the manifest policy', async () => {
    const org = await t.factories.organization();
    const name = `origin-${Date.now().toString(36)}`;
    const published = await org.owner.client
      .post(`/v1/integrations/${name}`, {
        title: 'Origin',
        description: '',
        scopes: [],
        organization: org.id,
        contentSecurityPolicy: { 'script-src': "\n  'self'\n  https://cdn.jsdelivr.net;\n" },
        script: SCRIPT,
      })
      .expect(200);
    expectConforms(published, 'publishIntegration', GITBOOK_0202);
    const endpoint = `http://${INTEGRATIONS_HOST}/v1/integrations/${name}/integration`;
    expect(published.body.urls).toMatchObject({
      location: `http://bindery.test/v1/integrations/${name}`,
      publicEndpoint: endpoint,
      publicContentEndpoint: endpoint,
    });
    const installed = await org.owner.client
      .post(`/v1/integrations/${name}/installations`, { organization: org.id })
      .expect(201);
    expect(installed.body.urls.publicEndpoint).toBe(
      `http://${INTEGRATIONS_HOST}/v1/integrations/${name}/installations/${installed.body.id as string}/integration`,
    );

    const framed = await t.anonymous
      .get(`/v1/integrations/${name}/integration/frame?v=1`)
      .set('host', INTEGRATIONS_HOST)
      .expect(200);
    expect(framed.text).toContain('<p>frame</p>');
    expect(framed.headers['x-frame-options']).toBeUndefined();
    expect(framed.headers['content-security-policy']).toBe(
      "script-src 'self' https://cdn.jsdelivr.net",
    );
    expect(framed.headers['set-cookie']).toBeUndefined();

    // The same page on the API's origin: sandboxed, not framed.
    const sandboxed = await t.anonymous
      .get(`/v1/integrations/${name}/integration/frame?v=1`)
      .set('host', 'bindery.test')
      .expect(200);
    expect(sandboxed.headers['content-security-policy']).toMatch(/^sandbox/);
    expect(sandboxed.headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});
