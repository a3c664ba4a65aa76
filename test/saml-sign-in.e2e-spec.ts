import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { Member } from '../src/orgs/entities/member.entity';
import { TeamMember } from '../src/orgs/teams/entities/team-member.entity';
import { Team } from '../src/orgs/teams/entities/team.entity';
import { ApiToken } from '../src/users/entities/api-token.entity';
import { User } from '../src/users/entities/user.entity';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import type { TestOrganization } from './helpers/factories';
import {
  readAuthnRequest,
  TestIdp,
  testKeyPair,
  type TestResponseOptions,
} from './helpers/test-idp';

const REDIRECT = 'http://localhost:8080/callback';

interface Provider {
  id: string;
  label: string;
  idpInitiatedLogin: boolean;
  service: { acsURL: string; startURL: string; entityID: string };
}

/** An organization with an email domain, a team and an active SAML provider on a test IdP. */
interface Fixture {
  org: TestOrganization;
  domain: string;
  team: Team;
  idp: TestIdp;
  provider: Provider;
  /** A fresh address at the organization's domain. */
  email(): string;
}

describe('SAML sign-in', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SSO_REDIRECT_URLS: `${REDIRECT},https://tools.example.com/` });
  });
  afterAll(() => t.close());

  const unique = () => randomBytes(4).toString('hex');

  async function fixture(providerFields: object = {}): Promise<Fixture> {
    const org = await t.factories.organization();
    const domain = `acme-${unique()}.test`;
    await org.owner.client.patch(`/v1/orgs/${org.id}`, { emailDomains: [domain] }).expect(200);
    const now = new Date();
    const team = await t.dataSource.getRepository(Team).save({
      id: randomBytes(10).toString('hex'),
      organizationId: org.id,
      title: `Team ${unique()}`,
      createdAt: now,
      updatedAt: now,
    });
    const idp = await TestIdp.create();
    const res = await org.owner.client
      .post(`/v1/orgs/${org.id}/saml`, {
        label: 'Okta',
        ...idp.settings,
        defaultRole: 'edit',
        defaultTeam: team.id,
        ...providerFields,
      })
      .expect(201);
    return {
      org,
      domain,
      team,
      idp,
      provider: res.body as Provider,
      email: () => `person-${unique()}@${domain}`,
    };
  }

  /** Calls the start URL and reads the AuthnRequest from its redirect, as the IdP would. */
  async function start(provider: Provider, redirectUri?: string) {
    const query = redirectUri ? `?redirect_uri=${encodeURIComponent(redirectUri)}` : '';
    const res = await request(t.server).get(`/v1/saml/${provider.id}/start${query}`).expect(302);
    return readAuthnRequest(res.headers.location);
  }

  /** Posts the IdP's response to the ACS as the browser does (an HTML form). */
  function post(provider: Provider, SAMLResponse: string, RelayState?: string) {
    return request(t.server)
      .post(`/v1/saml/${provider.id}/acs`)
      .type('form')
      .send(RelayState === undefined ? { SAMLResponse } : { SAMLResponse, RelayState });
  }

  /** The IdP's answer to a sign-in started here, for `email`, with `overrides`. */
  async function answer(
    f: Fixture,
    email: string,
    overrides: Partial<TestResponseOptions> = {},
    redirectUri?: string,
  ) {
    const authn = await start(f.provider, redirectUri);
    const SAMLResponse = f.idp.response({
      acsUrl: f.provider.service.acsURL,
      audience: f.provider.service.entityID,
      inResponseTo: authn.id,
      email,
      ...overrides,
    });
    return { authn, SAMLResponse, relayState: authn.relayState };
  }

  function tokenOf(html: string): string {
    const token = /<pre id="token">([^<]+)<\/pre>/.exec(html)?.[1];
    if (!token) throw new Error(`No token on the page:\n${html}`);
    return token;
  }

  const userByEmail = (email: string) => t.dataSource.getRepository(User).findOneBy({ email });
  const samlTokens = (userId: string) =>
    t.dataSource
      .getRepository(ApiToken)
      .createQueryBuilder('t')
      .where('t.user_id = :userId', { userId })
      .andWhere("t.label LIKE 'SAML sign-in%'")
      .getCount();

  /** A refused sign-in left no user (for a new address), no membership and no token. */
  async function expectNothingMade(f: Fixture, email: string, existingUserId?: string) {
    const user = await userByEmail(email);
    if (existingUserId) {
      expect(user?.id).toBe(existingUserId);
      expect(await samlTokens(existingUserId)).toBe(0);
    } else {
      expect(user).toBeNull();
    }
    const userId = existingUserId ?? user?.id;
    if (userId) {
      const member = await t.dataSource
        .getRepository(Member)
        .findOneBy({ organizationId: f.org.id, userId });
      expect(member).toBeNull();
    }
  }

  function expectErrorPage(res: request.Response, status: number, message: RegExp) {
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toMatch(message);
    expect(res.text).not.toMatch(/bnd_/);
  }

  describe('GET /v1/saml/{samlProviderId} (getSamlServiceProviderMetadata)', () => {
    it("answers the service provider's metadata: entity ID and ACS (HTTP-POST)", async () => {
      const f = await fixture();
      const res = await request(t.server).get(`/v1/saml/${f.provider.id}`).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
      const xml = res.text;
      expect(xml).toContain(`entityID="${TEST_PUBLIC_URL}/v1/saml/${f.provider.id}"`);
      expect(f.provider.service.entityID).toBe(`${TEST_PUBLIC_URL}/v1/saml/${f.provider.id}`);
      expect(xml).toMatch(
        new RegExp(
          `<AssertionConsumerService[^>]*Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"[^>]*Location="${f.provider.service.acsURL}"`,
        ),
      );
      expect(xml).toContain('WantAssertionsSigned="true"');
    });

    it('answers also for a pending provider (the IdP is configured from it first)', async () => {
      const org = await t.factories.organization();
      const res = await org.owner.client
        .post(`/v1/orgs/${org.id}/saml`, { label: 'Later' })
        .expect(201);
      await request(t.server).get(`/v1/saml/${res.body.id}`).expect(200);
    });

    it('answers 404 for an unknown provider', async () => {
      const res = await request(t.server).get('/v1/saml/nosuchprovider').expect(404);
      expect(res.body.error.code).toBe(404);
    });
  });

  describe('GET /v1/saml/{samlProviderId}/start (startSamlSignIn)', () => {
    it("redirects to the IdP's sign-in URL with an AuthnRequest and a RelayState", async () => {
      const f = await fixture();
      const res = await request(t.server).get(`/v1/saml/${f.provider.id}/start`).expect(302);
      expect(res.headers.location.startsWith(`${f.idp.ssoUrl}?SAMLRequest=`)).toBe(true);
      const authn = readAuthnRequest(res.headers.location);
      expect(authn.acsUrl).toBe(f.provider.service.acsURL);
      expect(authn.issuer).toBe(f.provider.service.entityID);
      expect(authn.relayState).not.toBe('');
    });

    it('refuses a redirect_uri that SSO_REDIRECT_URLS does not allow (400)', async () => {
      const f = await fixture();
      for (const uri of ['https://evil.test/cb', 'http://localhost:8080/callbackx', 'nope']) {
        const res = await request(t.server)
          .get(`/v1/saml/${f.provider.id}/start?redirect_uri=${encodeURIComponent(uri)}`)
          .expect(400);
        expect(res.body.error.message).toMatch(/redirect_uri is not allowed/);
      }
    });

    it('answers 404 for an unknown provider and 409 for a pending one', async () => {
      await request(t.server).get('/v1/saml/nosuchprovider/start').expect(404);
      const org = await t.factories.organization();
      const res = await org.owner.client
        .post(`/v1/orgs/${org.id}/saml`, { label: 'Later' })
        .expect(201);
      const pending = await request(t.server).get(`/v1/saml/${res.body.id}/start`).expect(409);
      expect(pending.body.error.message).toMatch(/not set up yet/);
    });
  });

  describe('POST /v1/saml/{samlProviderId}/acs (consumeSamlAssertion)', () => {
    it('signs a new person in: user, membership at the default role with sso, default team, a token scoped to the organization', async () => {
      const f = await fixture();
      const email = f.email();
      const { SAMLResponse, relayState } = await answer(f, email.toUpperCase(), {
        attributes: { givenName: 'Ada', surname: 'Lovelace' },
      });
      const res = await post(f.provider, SAMLResponse, relayState).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-store');
      const token = tokenOf(res.text);
      expect(res.text).toContain(`curl -H &quot;Authorization: Bearer ${token}&quot;`);

      const user = await userByEmail(email);
      expect(user).toEqual(
        expect.objectContaining({ displayName: 'Ada Lovelace', disabled: false }),
      );
      const member = await t.dataSource
        .getRepository(Member)
        .findOneBy({ organizationId: f.org.id, userId: user!.id });
      expect(member).toEqual(expect.objectContaining({ role: 'edit', sso: true, disabled: false }));
      const inTeam = await t.dataSource
        .getRepository(TeamMember)
        .findOneBy({ teamId: f.team.id, userId: user!.id });
      expect(inTeam?.role).toBe('member');
      const events = await t.dataSource.query(
        `SELECT type FROM events WHERE organization_id = $1 AND type = 'member_added' AND resource_key = $2`,
        [f.org.id, `member:${user!.id}`],
      );
      expect(events).toHaveLength(1);

      // No "initial" token: only the sign-in's, scoped to the organization, for SSO_SESSION_HOURS.
      const tokens = await t.dataSource.getRepository(ApiToken).findBy({ userId: user!.id });
      expect(tokens).toHaveLength(1);
      expect(tokens[0].label).toBe('SAML sign-in (Okta)');
      expect(tokens[0].scope).toEqual({
        access: 'read-write',
        organization: f.org.id,
        spaces: null,
        sites: null,
      });
      const hours = (tokens[0].expiresAt!.getTime() - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(t.config.SSO_SESSION_HOURS - 0.1);
      expect(hours).toBeLessThanOrEqual(t.config.SSO_SESSION_HOURS);

      const client = t.as(token);
      await client.get(`/v1/orgs/${f.org.id}`).expect(200);
      // Another organization of the same user is out of the token's reach.
      const other = await t.factories.organization();
      await t.dataSource.getRepository(Member).insert({
        organizationId: other.id,
        userId: user!.id,
        role: 'admin',
        sso: false,
        disabled: false,
        joinedAt: new Date(),
        lastSeenAt: null,
      });
      await client.get(`/v1/orgs/${other.id}`).expect(404);
    });

    it('lets a member sign in with its role kept, marking the membership sso', async () => {
      const f = await fixture();
      const member = await t.factories.member(f.org, 'admin');
      const email = f.email();
      await t.dataSource.getRepository(User).update({ id: member.id }, { email });
      const { SAMLResponse, relayState } = await answer(f, email);
      const res = await post(f.provider, SAMLResponse, relayState).expect(200);
      await t.as(tokenOf(res.text)).get(`/v1/orgs/${f.org.id}`).expect(200);
      const row = await t.dataSource
        .getRepository(Member)
        .findOneBy({ organizationId: f.org.id, userId: member.id });
      expect(row).toEqual(expect.objectContaining({ role: 'admin', sso: true }));
      expect(
        await t.dataSource
          .getRepository(TeamMember)
          .findOneBy({ teamId: f.team.id, userId: member.id }),
      ).toBeNull();
    });

    it('accepts a pending email invitation of the address: its role, and it is used up', async () => {
      const f = await fixture();
      const email = f.email();
      const invited = await f.org.owner.client
        .post(`/v1/orgs/${f.org.id}/invites`, { emails: [email], role: 'admin' })
        .expect(200);
      expect(invited.body.pendingInvites).toHaveLength(1);
      const { SAMLResponse, relayState } = await answer(f, email);
      await post(f.provider, SAMLResponse, relayState).expect(200);
      const user = await userByEmail(email);
      const member = await t.dataSource
        .getRepository(Member)
        .findOneBy({ organizationId: f.org.id, userId: user!.id });
      expect(member).toEqual(expect.objectContaining({ role: 'admin', sso: true }));
      const pending = await f.org.owner.client
        .get(`/v1/orgs/${f.org.id}/email-invites`)
        .expect(200);
      expect(pending.body.items).toEqual([]);
    });

    it('refuses a response signed with another key (400), making nothing', async () => {
      const f = await fixture();
      const email = f.email();
      const { SAMLResponse, relayState } = await answer(f, email, {
        signWith: await testKeyPair('forger'),
      });
      expectErrorPage(await post(f.provider, SAMLResponse, relayState), 400, /Invalid signature/);
      await expectNothingMade(f, email);
    });

    it('refuses an unsigned assertion (400)', async () => {
      const f = await fixture();
      const email = f.email();
      const { SAMLResponse, relayState } = await answer(f, email, { unsigned: true });
      expectErrorPage(await post(f.provider, SAMLResponse, relayState), 400, /signature/i);
      await expectNothingMade(f, email);
    });

    it('refuses an assertion for another audience (400)', async () => {
      const f = await fixture();
      const email = f.email();
      const { SAMLResponse, relayState } = await answer(f, email, {
        audience: 'https://other-sp.test/saml',
      });
      expectErrorPage(await post(f.provider, SAMLResponse, relayState), 400, /audience mismatch/);
      await expectNothingMade(f, email);
    });

    it('refuses an assertion for another recipient, or a response for another destination (400)', async () => {
      const f = await fixture();
      const email = f.email();
      const wrongRecipient = await answer(f, email, { recipient: 'https://other-sp.test/acs' });
      expectErrorPage(
        await post(f.provider, wrongRecipient.SAMLResponse, wrongRecipient.relayState),
        400,
        /recipient is not this provider&#39;s ACS URL/,
      );
      const wrongDestination = await answer(f, email, { destination: 'https://other-sp.test/acs' });
      expectErrorPage(
        await post(f.provider, wrongDestination.SAMLResponse, wrongDestination.relayState),
        400,
        /destination is not this provider&#39;s ACS URL/,
      );
      await expectNothingMade(f, email);
    });

    it('refuses an assertion of another issuer (400)', async () => {
      const f = await fixture();
      const email = f.email();
      const { SAMLResponse, relayState } = await answer(f, email, {
        issuer: 'https://other-idp.test',
      });
      expectErrorPage(await post(f.provider, SAMLResponse, relayState), 400, /issuer/);
      await expectNothingMade(f, email);
    });

    it('refuses an expired assertion, beyond the clock skew (400)', async () => {
      const f = await fixture();
      const email = f.email();
      const { SAMLResponse, relayState } = await answer(f, email, {
        notBefore: new Date(Date.now() - 10 * 60_000),
        notOnOrAfter: new Date(Date.now() - 2 * 60_000),
      });
      expectErrorPage(await post(f.provider, SAMLResponse, relayState), 400, /expired/);
      await expectNothingMade(f, email);
    });

    it('accepts an assertion expired within the clock skew (60 s)', async () => {
      const f = await fixture();
      const { SAMLResponse, relayState } = await answer(f, f.email(), {
        notOnOrAfter: new Date(Date.now() - 20_000),
      });
      await post(f.provider, SAMLResponse, relayState).expect(200);
    });

    it('refuses a replayed assertion (400), even for a new request', async () => {
      const f = await fixture();
      const email = f.email();
      const first = await answer(f, email, { assertionId: '_replayed-assertion' });
      const res = await post(f.provider, first.SAMLResponse, first.relayState).expect(200);
      const token = tokenOf(res.text);

      expectErrorPage(
        await post(f.provider, first.SAMLResponse, first.relayState),
        400,
        /InResponseTo is not valid|already used/,
      );
      const again = await answer(f, email, { assertionId: '_replayed-assertion' });
      expectErrorPage(
        await post(f.provider, again.SAMLResponse, again.relayState),
        400,
        /already used to sign in/,
      );
      const user = await userByEmail(email);
      expect(await samlTokens(user!.id)).toBe(1);
      await t.as(token).get(`/v1/orgs/${f.org.id}`).expect(200);
    });

    it('refuses a response to a request it never sent (unknown InResponseTo, 400)', async () => {
      const f = await fixture();
      const email = f.email();
      const { SAMLResponse, relayState } = await answer(f, email, {
        inResponseTo: '_never-sent-by-bindery',
      });
      expectErrorPage(
        await post(f.provider, SAMLResponse, relayState),
        400,
        /InResponseTo is not valid/,
      );
      await expectNothingMade(f, email);
    });

    it('refuses a response to a request of another provider (400)', async () => {
      const f = await fixture();
      const other = await fixture();
      const email = f.email();
      const otherAuthn = await start(other.provider);
      const SAMLResponse = f.idp.response({
        acsUrl: f.provider.service.acsURL,
        audience: f.provider.service.entityID,
        inResponseTo: otherAuthn.id,
        email,
      });
      expectErrorPage(
        await post(f.provider, SAMLResponse, otherAuthn.relayState),
        400,
        /InResponseTo is not valid/,
      );
      await expectNothingMade(f, email);
    });

    it('refuses an IdP-initiated response unless the provider accepts them (403), then accepts it', async () => {
      const f = await fixture();
      const email = f.email();
      const unsolicited = () =>
        f.idp.response({
          acsUrl: f.provider.service.acsURL,
          audience: f.provider.service.entityID,
          email,
        });
      expectErrorPage(
        await post(f.provider, unsolicited()),
        403,
        /started at the identity provider are off/,
      );
      await expectNothingMade(f, email);

      const updated = await f.org.owner.client
        .patch(`/v1/orgs/${f.org.id}/saml/${f.provider.id}`, { idpInitiatedLogin: true })
        .expect(200);
      expect(updated.body.idpInitiatedLogin).toBe(true);
      const res = await post(
        f.provider,
        unsolicited(),
        'https://idp.test/some/default/state',
      ).expect(200);
      await t.as(tokenOf(res.text)).get(`/v1/orgs/${f.org.id}`).expect(200);
    });

    it('refuses an address outside the organization’s email domains (403), creating no user', async () => {
      const f = await fixture();
      const email = `mallory-${unique()}@elsewhere.test`;
      const { SAMLResponse, relayState } = await answer(f, email);
      expectErrorPage(
        await post(f.provider, SAMLResponse, relayState),
        403,
        /is not at one of this organization&#39;s email domains/,
      );
      await expectNothingMade(f, email);
    });

    it('refuses a disabled user (403)', async () => {
      const f = await fixture();
      const email = f.email();
      const user = await t.factories.user({ email });
      await t.admin.patch(`/v1/admin/users/${user.id}`, { disabled: true }).expect(200);
      const { SAMLResponse, relayState } = await answer(f, email);
      expectErrorPage(await post(f.provider, SAMLResponse, relayState), 403, /user is disabled/);
      await expectNothingMade(f, email, user.id);
    });

    it('refuses a disabled membership (403)', async () => {
      const f = await fixture();
      const member = await t.factories.member(f.org, 'read');
      const email = f.email();
      await t.dataSource.getRepository(User).update({ id: member.id }, { email });
      await t.dataSource
        .getRepository(Member)
        .update({ organizationId: f.org.id, userId: member.id }, { disabled: true });
      const { SAMLResponse, relayState } = await answer(f, email);
      expectErrorPage(await post(f.provider, SAMLResponse, relayState), 403, /membership/);
      expect(await samlTokens(member.id)).toBe(0);
    });

    it('answers garbage with an HTML 400, never a 500', async () => {
      const f = await fixture();
      expectErrorPage(await post(f.provider, 'not base64 at all <xml>'), 400, /refused/);
      expectErrorPage(
        await post(f.provider, Buffer.from('<samlp:Response/>').toString('base64')),
        400,
        /refused/,
      );
      const missing = await request(t.server)
        .post(`/v1/saml/${f.provider.id}/acs`)
        .type('form')
        .send({ RelayState: 'x' });
      expectErrorPage(missing, 400, /SAMLResponse/);
      const unknown = await post({ ...f.provider, id: 'nosuchprovider' }, 'x');
      expectErrorPage(unknown, 404, /SAML provider not found/);
    });
  });

  describe('redirect_uri and POST /v1/sso/token (exchangeSsoSignInCode)', () => {
    it('redirects with a one-time code, exchanged once for the token', async () => {
      const f = await fixture();
      const email = f.email();
      const { SAMLResponse, relayState } = await answer(f, email, {}, `${REDIRECT}?state=xyz`);
      const res = await post(f.provider, SAMLResponse, relayState).expect(302);
      const location = new URL(res.headers.location);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
      expect(location.searchParams.get('state')).toBe('xyz');
      const code = location.searchParams.get('code')!;
      expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const user = await userByEmail(email);
      expect(await samlTokens(user!.id)).toBe(0);

      const exchanged = await request(t.server).post('/v1/sso/token').send({ code }).expect(200);
      expect(exchanged.body).toEqual({
        token: expect.stringMatching(/^bnd_/),
        expiresAt: expect.any(String),
        organizationId: f.org.id,
        user: { id: user!.id, email, displayName: email.split('@')[0] },
      });
      await t.as(exchanged.body.token).get(`/v1/orgs/${f.org.id}`).expect(200);

      const second = await request(t.server).post('/v1/sso/token').send({ code }).expect(400);
      expect(second.body.error.message).toMatch(/unknown, already used or expired/);
    });

    it('refuses an unknown or expired code (400)', async () => {
      await request(t.server).post('/v1/sso/token').send({ code: 'nope' }).expect(400);
      await request(t.server).post('/v1/sso/token').send({}).expect(400);

      const f = await fixture();
      const { SAMLResponse, relayState } = await answer(f, f.email(), {}, REDIRECT);
      const res = await post(f.provider, SAMLResponse, relayState).expect(302);
      const code = new URL(res.headers.location).searchParams.get('code')!;
      t.clock.set(new Date(Date.now() + 61_000));
      try {
        await request(t.server).post('/v1/sso/token').send({ code }).expect(400);
      } finally {
        t.clock.resume();
      }
    });

    it('refuses a RelayState that was tampered with (400)', async () => {
      const f = await fixture();
      const email = f.email();
      const { SAMLResponse, relayState } = await answer(f, email, {}, REDIRECT);
      const [payload, signature] = relayState.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      claims[2] = 'https://evil.test/steal';
      const forged = `${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
      expectErrorPage(await post(f.provider, SAMLResponse, forged), 400, /RelayState/);
      await expectNothingMade(f, email);
    });
  });
});
