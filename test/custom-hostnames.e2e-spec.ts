import { randomBytes } from 'node:crypto';
import { Revalidation } from '../src/platform/revalidation/revalidation.service';
import { CustomHostnamesService } from '../src/sites/custom-hostnames/custom-hostnames.service';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import { expectConforms, GITBOOK_0202 } from './helpers/conformance';
import type { SiteBody } from './helpers/bodies';
import type { TestOrganization } from './helpers/factories';

/**
 * Custom hostnames (GitBook 0.202.0's custom-hostnames group): a site's hostname is served by
 * the published lookup only once its DNS points at Bindery, a CNAME to PUBLIC_URL's host or the
 * TXT record `bindery-site=<siteId>` at `_bindery.<hostname>`, as answered by a DNS server on
 * 127.0.0.1 (DNS_SERVERS, test/helpers/dns-server.ts).
 */
describe('custom hostnames', () => {
  let t: TestApp;
  const target = new URL(TEST_PUBLIC_URL).hostname;
  /** Tags revalidated since the start (heard in this process). */
  const revalidated: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    t.bindery.app.get(Revalidation).onChange((tags) => revalidated.push(...tags));
  });
  afterAll(() => t.close());

  const host = () => `docs-${randomBytes(4).toString('hex')}.example.com`;
  const path = (hostname: string) => `/v1/custom-hostnames/${hostname}`;
  const sitePath = (org: TestOrganization, siteId: string) => `/v1/orgs/${org.id}/sites/${siteId}`;
  const lookup = (url: string) =>
    t.anonymous.post('/v1/urls/published', { url, visitor: { unsignedClaims: {} } });
  const error = (code: number) => ({ error: { code, message: expect.any(String) } });

  /** A published site of a new organization, with one site space, on `hostname`. */
  async function siteOn(hostname: string): Promise<{ org: TestOrganization; site: SiteBody }> {
    const org = await t.factories.organization();
    const site = await t.factories.site(org);
    await t.factories.siteSpace(org, site.id, { spaceTitle: 'Guides' });
    await org.owner.client.post(`${sitePath(org, site.id)}/publish`).expect(200);
    await org.owner.client.patch(sitePath(org, site.id), { hostname }).expect(200);
    return { org, site };
  }

  describe('the DNS check and the published lookup', () => {
    it('keeps a hostname without DNS pending, and serves it once its CNAME names Bindery', async () => {
      const hostname = host();
      const { org, site } = await siteOn(hostname);

      const pending = await org.owner.client.get(path(hostname)).expect(200);
      expectConforms(pending, 'getCustomHostname', GITBOOK_0202);
      expect(pending.body).toEqual({
        object: 'custom-hostname',
        hostname,
        target: { type: 'site', site: site.id },
        isActive: false,
        status: 'dns_no_cname',
        urls: { location: `${TEST_PUBLIC_URL}/v1/custom-hostnames/${hostname}` },
      });
      await lookup(`https://${hostname}/`).expect(404);

      t.dns.cname(hostname, target);
      revalidated.length = 0;
      const res = await org.owner.client.patch(path(hostname)).expect(204);
      expectConforms(res, 'dnsRevalidateCustomHostname', GITBOOK_0202);
      expect(revalidated).toContain(`site:${site.id}`);
      const live = await org.owner.client.get(path(hostname)).expect(200);
      expect(live.body).toMatchObject({ isActive: true, status: 'live' });
      const found = await lookup(`https://${hostname}/`).expect(200);
      expect(found.body).toMatchObject({ site: site.id, canonicalUrl: `https://${hostname}` });
    });

    it('is live at once when the DNS already points at Bindery as the hostname is set', async () => {
      const hostname = host();
      t.dns.cname(hostname, target.toUpperCase());
      const { org, site } = await siteOn(hostname);
      const res = await org.owner.client.get(path(hostname)).expect(200);
      expect(res.body).toMatchObject({ isActive: true, status: 'live' });
      await lookup(`https://${hostname}/`).expect(200);
      // The organization's sites URL still serves it too.
      const platform = await lookup(`${TEST_PUBLIC_URL}/sites/${org.id}/${site.id}/`).expect(200);
      expect(platform.body.site).toBe(site.id);
    });

    it('keeps a CNAME to another host pending, saying so', async () => {
      const hostname = host();
      t.dns.cname(hostname, 'proxy.elsewhere.example.net');
      const { org } = await siteOn(hostname);
      const res = await org.owner.client.get(path(hostname)).expect(200);
      expect(res.body).toMatchObject({ isActive: false, status: 'dns_wrong_cname' });
      await lookup(`https://${hostname}/`).expect(404);
    });

    it('goes live by the TXT record naming its own site, not another site', async () => {
      const hostname = host();
      const { org, site } = await siteOn(hostname);
      const other = await t.factories.site(org);
      t.dns.txt(`_bindery.${hostname}`, `bindery-site=${other.id}`);
      await org.owner.client.patch(path(hostname)).expect(204);
      expect((await org.owner.client.get(path(hostname)).expect(200)).body).toMatchObject({
        isActive: false,
        status: 'dns_no_cname',
      });
      t.dns.txt(`_bindery.${hostname}`, `bindery-site=${site.id}`);
      await org.owner.client.patch(path(hostname)).expect(204);
      expect((await org.owner.client.get(path(hostname)).expect(200)).body).toMatchObject({
        isActive: true,
        status: 'live',
      });
      await lookup(`https://${hostname}/`).expect(200);
    });

    it('takes a live hostname down when its DNS moves away, and starts over on a new hostname', async () => {
      const hostname = host();
      t.dns.cname(hostname, target);
      const { org, site } = await siteOn(hostname);
      await lookup(`https://${hostname}/`).expect(200);

      t.dns.clear(hostname).cname(hostname, 'other.example.org');
      await org.owner.client.patch(path(hostname)).expect(204);
      expect((await org.owner.client.get(path(hostname)).expect(200)).body).toMatchObject({
        isActive: false,
        status: 'dns_wrong_cname',
      });
      await lookup(`https://${hostname}/`).expect(404);

      // A new hostname is checked afresh; the old one is no one's.
      const next = host();
      await org.owner.client.patch(sitePath(org, site.id), { hostname: next }).expect(200);
      expect((await org.owner.client.get(path(next)).expect(200)).body.status).toBe('dns_no_cname');
      await org.owner.client.get(path(hostname)).expect(404);
    });

    it('keeps a live hostname live while the DNS servers do not answer', async () => {
      const hostname = host();
      t.dns.cname(hostname, target);
      const { org } = await siteOn(hostname);
      t.dns.mute(hostname).mute(`_bindery.${hostname}`);
      await org.owner.client.patch(path(hostname)).expect(204);
      expect((await org.owner.client.get(path(hostname)).expect(200)).body).toMatchObject({
        isActive: true,
        status: 'live',
      });
      await lookup(`https://${hostname}/`).expect(200);
      // A hostname that never was live says the check failed.
      const silent = host();
      t.dns.mute(silent).mute(`_bindery.${silent}`);
      const { org: second } = await siteOn(silent);
      expect((await second.owner.client.get(path(silent)).expect(200)).body).toMatchObject({
        isActive: false,
        status: 'internal_error',
      });
      t.dns.clear(hostname).clear(silent);
    }, 30_000);

    it('rechecks pending hostnames on its schedule', async () => {
      const hostname = host();
      const { org } = await siteOn(hostname);
      t.dns.cname(hostname, target);
      const hostnames = t.bindery.app.get(CustomHostnamesService);
      // Checked moments ago: not due yet.
      await hostnames.recheckDue();
      expect((await org.owner.client.get(path(hostname)).expect(200)).body.status).toBe(
        'dns_no_cname',
      );
      t.clock.advance(11 * 60 * 1000);
      expect(await hostnames.recheckDue()).toBeGreaterThanOrEqual(1);
      expect((await org.owner.client.get(path(hostname)).expect(200)).body.status).toBe('live');
      await lookup(`https://${hostname}/`).expect(200);
    });
  });

  describe('GET /v1/custom-hostnames/{hostname} (getCustomHostname)', () => {
    it("answers the organization's admins and the instance administrator, in any case", async () => {
      const hostname = host();
      const { org, site } = await siteOn(hostname);
      const admin = await t.factories.asMember(org, 'admin');
      expect((await admin.get(path(hostname)).expect(200)).body.target.site).toBe(site.id);
      const res = await t.admin.get(path(hostname.toUpperCase())).expect(200);
      expectConforms(res, 'getCustomHostname', GITBOOK_0202);
      expect(res.body.hostname).toBe(hostname);
    });

    it('is 403 to members without the admin role, 404 to other organizations', async () => {
      const hostname = host();
      const { org } = await siteOn(hostname);
      const editor = await t.factories.asMember(org, 'create');
      const denied = await editor.get(path(hostname)).expect(403);
      expect(denied.body).toEqual(error(403));
      const other = await t.factories.organization();
      expect((await other.owner.client.get(path(hostname)).expect(404)).body).toEqual(error(404));
    });

    it('is 404 for a hostname no site has, 400 for what is no hostname, 401 without a token', async () => {
      const org = await t.factories.organization();
      await org.owner.client.get(path(host())).expect(404);
      for (const bad of [
        'localhost',
        'a..b.example.com',
        `${'x'.repeat(64)}.example.com`,
        '-a.b.c',
      ]) {
        const res = await org.owner.client.get(path(bad)).expect(400);
        expect(res.body).toEqual(error(400));
        expect(res.body.error.message).toMatch(/hostname/);
      }
      await t.anonymous.get(path(host())).expect(401);
    });
  });

  describe('PATCH /v1/custom-hostnames/{hostname} (dnsRevalidateCustomHostname)', () => {
    it('is 403 to members without the admin role, 404 elsewhere, 400 for no hostname', async () => {
      const hostname = host();
      const { org } = await siteOn(hostname);
      t.dns.cname(hostname, target);
      const editor = await t.factories.asMember(org, 'create');
      expect((await editor.patch(path(hostname)).expect(403)).body).toEqual(error(403));
      const other = await t.factories.organization();
      await other.owner.client.patch(path(hostname)).expect(404);
      // Neither changed anything.
      expect((await org.owner.client.get(path(hostname)).expect(200)).body.isActive).toBe(false);
      await org.owner.client.patch(path(host())).expect(404);
      expect((await org.owner.client.patch(path('not_a_host')).expect(400)).body).toEqual(
        error(400),
      );
      // The instance administrator may revalidate it.
      await t.admin.patch(path(hostname)).expect(204);
      expect((await org.owner.client.get(path(hostname)).expect(200)).body.isActive).toBe(true);
    });
  });

  describe('DELETE /v1/custom-hostnames/{hostname} (removeCustomHostname)', () => {
    it('takes the hostname off its site (205), then answers 204', async () => {
      const hostname = host();
      t.dns.cname(hostname, target);
      const { org, site } = await siteOn(hostname);
      await lookup(`https://${hostname}/`).expect(200);
      revalidated.length = 0;
      const removed = await org.owner.client.delete(path(hostname)).expect(205);
      expectConforms(removed, 'removeCustomHostname', GITBOOK_0202);
      expect(revalidated).toContain(`site:${site.id}`);
      const read = await org.owner.client.get(sitePath(org, site.id)).expect(200);
      expect(read.body.hostname).toBeUndefined();
      await lookup(`https://${hostname}/`).expect(404);
      await org.owner.client.get(path(hostname)).expect(404);
      const again = await org.owner.client.delete(path(hostname)).expect(204);
      expectConforms(again, 'removeCustomHostname', GITBOOK_0202);
      // Another site may take it now.
      const other = await siteOn(hostname);
      expect((await other.org.owner.client.get(path(hostname)).expect(200)).body.target.site).toBe(
        other.site.id,
      );
    });

    it('is 403 to members without the admin role; 204 without effect to other organizations', async () => {
      const hostname = host();
      const { org } = await siteOn(hostname);
      const editor = await t.factories.asMember(org, 'create');
      expect((await editor.delete(path(hostname)).expect(403)).body).toEqual(error(403));
      const other = await t.factories.organization();
      await other.owner.client.delete(path(hostname)).expect(204);
      await org.owner.client.get(path(hostname)).expect(200);
      expect((await org.owner.client.delete(path('bad host')).expect(400)).body).toEqual(
        error(400),
      );
      // The instance administrator may remove it.
      await t.admin.delete(path(hostname)).expect(205);
      await org.owner.client.get(path(hostname)).expect(404);
    });
  });
});
