import { randomBytes } from 'node:crypto';
import { TeamMember } from '../src/orgs/teams/entities/team-member.entity';
import { Team } from '../src/orgs/teams/entities/team.entity';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import { TEST_CERTIFICATE_PEM as CERTIFICATE } from './fixtures/certificate';
import { expectConforms } from './helpers/conformance';
import type { TestOrganization, TestUser } from './helpers/factories';

const IDP = {
  entityID: 'http://www.okta.com/exk1a2b3c4',
  certificate: CERTIFICATE,
  ssoURL: 'https://acme.okta.com/app/acme_docs/exk1a2b3c4/sso/saml',
};

interface Provider {
  id: string;
  label: string;
  status: string;
  defaultTeam?: { id: string; members: number };
  idpInitiatedLogin?: boolean;
}

describe('SAML providers and SSO logins', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const saml = (org: { id: string }) => `/v1/orgs/${org.id}/saml`;

  /** A team of the organization with these members (teams have no API in this area). */
  async function team(org: TestOrganization, members: TestUser[] = []): Promise<Team> {
    const now = new Date();
    const created = await t.dataSource.getRepository(Team).save({
      id: randomBytes(10).toString('hex'),
      organizationId: org.id,
      title: `Team ${randomBytes(3).toString('hex')}`,
      createdAt: now,
      updatedAt: now,
    });
    for (const member of members) {
      await t.dataSource.getRepository(TeamMember).insert({
        teamId: created.id,
        userId: member.id,
        organizationId: org.id,
        role: 'member',
        addedAt: now,
      });
    }
    return created;
  }

  async function provider(org: TestOrganization, body: object = { label: 'Okta', ...IDP }) {
    const res = await org.owner.client.post(saml(org), body).expect(201);
    return res.body as Provider;
  }

  /**
   * GitBook requires `ssoURL` as a URI and has no null for it: a pending provider without one
   * sends "". That is the body's only difference from GitBook's schema.
   */
  function expectConformsPending(res: { status: number; body: Provider }, operationId: string) {
    expect(res.body).toEqual(expect.objectContaining({ status: 'pending', ssoURL: '' }));
    expect(() => expectConforms(res, operationId)).toThrow(
      /1 error\(s\):\n {2}- \/ssoURL must match format "uri"/,
    );
    expectConforms(
      { status: res.status, body: { ...res.body, ssoURL: 'https://idp.test/sso' } },
      operationId,
    );
  }

  describe('POST /v1/orgs/{organizationId}/saml (createOrganizationSAMLProvider)', () => {
    it('creates an active provider with its default team and role', async () => {
      t.clock.set('2026-03-01T10:00:00.000Z');
      const org = await t.factories.organization();
      const ada = await t.factories.member(org, 'read');
      const grace = await t.factories.member(org, 'edit');
      const engineers = await team(org, [ada, grace]);

      const res = await org.owner.client
        .post(saml(org), { label: 'Okta', ...IDP, defaultTeam: engineers.id, defaultRole: 'edit' })
        .expect(201);
      expectConforms(res, 'createOrganizationSAMLProvider');
      const id = res.body.id as string;
      const location = `${TEST_PUBLIC_URL}/v1/orgs/${org.id}/saml/${id}`;
      expect(res.headers.location).toBe(location);
      expect(res.body).toEqual({
        object: 'saml-provider',
        id,
        label: 'Okta',
        ...IDP,
        defaultTeam: {
          object: 'team',
          id: engineers.id,
          title: engineers.title,
          members: 2,
          spaces: 0,
          createdAt: engineers.createdAt.toISOString(),
          permissions: { admin: true, view: true },
        },
        defaultRole: 'edit',
        idpInitiatedLogin: false,
        createdAt: '2026-03-01T10:00:00.000Z',
        status: 'active',
        service: {
          acsURL: `${TEST_PUBLIC_URL}/v1/saml/${id}/acs`,
          startURL: `${TEST_PUBLIC_URL}/v1/saml/${id}/start`,
          entityID: `${TEST_PUBLIC_URL}/v1/saml/${id}`,
        },
        urls: { location },
      });

      const read = await org.owner.client.get(`${saml(org)}/${id}`).expect(200);
      expect(read.body).toEqual(res.body);
    });

    it('creates a pending provider from a label alone, new users getting the read role', async () => {
      const org = await t.factories.organization();
      const res = await org.owner.client.post(saml(org), { label: 'Entra ID' }).expect(201);
      expect(res.body).toEqual(
        expect.objectContaining({
          label: 'Entra ID',
          entityID: '',
          certificate: '',
          ssoURL: '',
          defaultRole: 'read',
          status: 'pending',
        }),
      );
      expect(res.body).not.toHaveProperty('defaultTeam');
      expectConformsPending(res, 'createOrganizationSAMLProvider');
      const list = await org.owner.client.get(saml(org)).expect(200);
      expect(list.body.items).toEqual([res.body]);
    });

    it('makes new users guests with defaultRole null', async () => {
      const org = await t.factories.organization();
      const created = await provider(org, { label: 'Guests', ...IDP, defaultRole: null });
      const read = await org.owner.client.get(`${saml(org)}/${created.id}`).expect(200);
      expect(read.body.defaultRole).toBeNull();
      expectConforms(read, 'getOrganizationSAMLProviderById');
    });

    it.each([
      ['no label', {}, 'label'],
      ['an empty label', { label: '' }, 'label'],
      ['a null label', { label: null }, 'label'],
      ['a label of 31 characters', { label: 'x'.repeat(31) }, 'label'],
      ['an empty entityID', { label: 'Okta', entityID: '' }, 'entityID'],
      ['an entityID of 1025 characters', { label: 'Okta', entityID: 'e'.repeat(1025) }, 'entityID'],
      [
        'a certificate that is not PEM',
        { label: 'Okta', certificate: 'not a certificate' },
        'certificate',
      ],
      [
        'a corrupted certificate',
        { label: 'Okta', certificate: CERTIFICATE.replace(/[A-Z]/g, '*') },
        'certificate',
      ],
      [
        'a certificate over 10000 characters',
        { label: 'Okta', certificate: CERTIFICATE + ' '.repeat(10000) },
        'certificate',
      ],
      ['an http ssoURL', { label: 'Okta', ssoURL: 'http://idp.example.com/sso' }, 'ssoURL'],
      ['an ssoURL that is no URL', { label: 'Okta', ssoURL: 'not a url' }, 'ssoURL'],
      [
        'an ssoURL over 2048 characters',
        { label: 'Okta', ssoURL: `https://idp.example.com/${'a'.repeat(2048)}` },
        'ssoURL',
      ],
      ['an unknown defaultTeam', { label: 'Okta', defaultTeam: 'no-such-team' }, 'defaultTeam'],
      ['a numeric defaultTeam', { label: 'Okta', defaultTeam: 42 }, 'defaultTeam'],
      ['an unknown defaultRole', { label: 'Okta', defaultRole: 'owner' }, 'defaultRole'],
      [
        'a non-boolean idpInitiatedLogin',
        { label: 'Okta', idpInitiatedLogin: 'yes' },
        'idpInitiatedLogin',
      ],
      ['a response-only field', { label: 'Okta', status: 'active' }, 'status'],
    ])('refuses %s with 400 naming it', async (_label, body, field) => {
      const org = await t.factories.organization();
      const res = await org.owner.client.post(saml(org), body).expect(400);
      expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining(field) } });
      const list = await org.owner.client.get(saml(org)).expect(200);
      expect(list.body.count).toBe(0);
    });

    it("refuses another organization's team as defaultTeam with 400", async () => {
      const org = await t.factories.organization();
      const theirs = await team(await t.factories.organization());
      const res = await org.owner.client
        .post(saml(org), { label: 'Okta', defaultTeam: theirs.id })
        .expect(400);
      expect(res.body).toEqual({
        error: {
          code: 400,
          message: 'defaultTeam must be the id of a team of this organization.',
        },
      });
    });

    it('answers 403 to members below admin', async () => {
      const org = await t.factories.organization();
      for (const role of ['create', 'read'] as const) {
        const member = await t.factories.asMember(org, role);
        const res = await member.post(saml(org), { label: 'Okta' }).expect(403);
        expect(res.body).toEqual({ error: { code: 403, message: expect.any(String) } });
      }
      const list = await org.owner.client.get(saml(org)).expect(200);
      expect(list.body.count).toBe(0);
    });

    it('answers 404 to the admin of another organization and for an unknown organization', async () => {
      const org = await t.factories.organization();
      const stranger = await t.factories.organization();
      const hidden = await stranger.owner.client.post(saml(org), { label: 'Okta' }).expect(404);
      expect(hidden.body).toEqual({ error: { code: 404, message: 'Organization not found.' } });
      await stranger.owner.client.post(saml({ id: 'no-such-org' }), { label: 'Okta' }).expect(404);
      const list = await org.owner.client.get(saml(org)).expect(200);
      expect(list.body.count).toBe(0);
    });
  });

  describe('GET /v1/orgs/{organizationId}/saml (listSAMLProvidersInOrganizationById)', () => {
    it("lists the organization's providers, oldest first, across pages", async () => {
      const org = await t.factories.organization();
      const created: string[] = [];
      for (let i = 0; i < 3; i++) {
        t.clock.set(new Date(Date.UTC(2026, 4, 1, 0, 0, i)));
        created.push((await provider(org, { label: `IdP ${i}`, ...IDP })).id);
      }
      await provider(await t.factories.organization()); // another organization's

      const first = await org.owner.client.get(`${saml(org)}?limit=2`).expect(200);
      expectConforms(first, 'listSAMLProvidersInOrganizationById');
      expect(first.body.count).toBe(3);
      expect(first.body.items.map((p: Provider) => p.id)).toEqual(created.slice(0, 2));
      const second = await org.owner.client
        .get(`${saml(org)}?limit=2&page=${first.body.next.page}`)
        .expect(200);
      expectConforms(second, 'listSAMLProvidersInOrganizationById');
      expect(second.body.items.map((p: Provider) => p.id)).toEqual([created[2]]);
      expect(second.body).not.toHaveProperty('next');
    });

    it('shows each default team with its member count', async () => {
      const org = await t.factories.organization();
      const small = await team(org, [await t.factories.member(org, 'read')]);
      const empty = await team(org);
      await provider(org, { label: 'A', ...IDP, defaultTeam: small.id });
      await provider(org, { label: 'B', ...IDP, defaultTeam: empty.id });
      await provider(org, { label: 'C', ...IDP });
      const res = await org.owner.client.get(saml(org)).expect(200);
      expectConforms(res, 'listSAMLProvidersInOrganizationById');
      const teams = Object.fromEntries(
        res.body.items.map((p: Provider) => [p.label, p.defaultTeam?.members]),
      );
      expect(teams).toEqual({ A: 1, B: 0, C: undefined });
    });

    it('answers an empty page when there is none, and 400 to a bad page', async () => {
      const org = await t.factories.organization();
      const res = await org.owner.client.get(saml(org)).expect(200);
      expect(res.body).toEqual({ items: [], count: 0 });
      expectConforms(res, 'listSAMLProvidersInOrganizationById');
      const bad = await org.owner.client.get(`${saml(org)}?page=garbage`).expect(400);
      expect(bad.body).toEqual({ error: { code: 400, message: expect.stringContaining('page') } });
      await org.owner.client.get(`${saml(org)}?limit=1001`).expect(400);
    });

    it('answers 403 to a read member and 404 to another organization', async () => {
      const org = await t.factories.organization();
      await provider(org);
      await (await t.factories.asMember(org, 'read')).get(saml(org)).expect(403);
      const stranger = await t.factories.organization();
      await stranger.owner.client.get(saml(org)).expect(404);
    });
  });

  describe('GET /v1/orgs/{organizationId}/saml/{samlProviderId} (getOrganizationSAMLProviderById)', () => {
    it('returns the provider', async () => {
      const org = await t.factories.organization();
      const created = await provider(org);
      const res = await org.owner.client.get(`${saml(org)}/${created.id}`).expect(200);
      expectConforms(res, 'getOrganizationSAMLProviderById');
      expect(res.body).toEqual(created);
    });

    it("answers 404 for an unknown id and for another organization's provider", async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const theirs = await provider(other);
      const unknown = await org.owner.client.get(`${saml(org)}/no-such-provider`).expect(404);
      expect(unknown.body).toEqual({ error: { code: 404, message: 'SAML provider not found.' } });
      expectConforms(unknown, 'getOrganizationSAMLProviderById');
      const crossed = await org.owner.client.get(`${saml(org)}/${theirs.id}`).expect(404);
      expect(crossed.body).toEqual(unknown.body);
      const hidden = await org.owner.client.get(`${saml(other)}/${theirs.id}`).expect(404);
      expect(hidden.body).toEqual({ error: { code: 404, message: 'Organization not found.' } });
      expectConforms(hidden, 'getOrganizationSAMLProviderById');
    });

    it('answers 403 to a create member', async () => {
      const org = await t.factories.organization();
      const created = await provider(org);
      const member = await t.factories.asMember(org, 'create');
      await member.get(`${saml(org)}/${created.id}`).expect(403);
    });
  });

  describe('PATCH /v1/orgs/{organizationId}/saml/{samlProviderId} (updateOrganizationSAMLProvider)', () => {
    it('completes a pending provider, which becomes active, leaving absent fields unchanged', async () => {
      const org = await t.factories.organization();
      const created = await provider(org, { label: 'Okta', defaultRole: 'comment' });
      expect(created.status).toBe('pending');
      const res = await org.owner.client.patch(`${saml(org)}/${created.id}`, IDP).expect(200);
      expectConforms(res, 'updateOrganizationSAMLProvider');
      expect(res.body).toEqual({ ...created, ...IDP, status: 'active' });

      const read = await org.owner.client.get(`${saml(org)}/${created.id}`).expect(200);
      expect(read.body).toEqual(res.body);
    });

    it('renames, changes the role, and sets then clears the default team', async () => {
      const org = await t.factories.organization();
      const created = await provider(org);
      const support = await team(org, [await t.factories.member(org, 'read')]);
      const url = `${saml(org)}/${created.id}`;

      const set = await org.owner.client
        .patch(url, { label: 'Okta SSO', defaultTeam: support.id, defaultRole: null })
        .expect(200);
      expectConforms(set, 'updateOrganizationSAMLProvider');
      expect(set.body).toEqual(
        expect.objectContaining({ label: 'Okta SSO', defaultRole: null, ...IDP }),
      );
      expect(set.body.defaultTeam).toEqual(expect.objectContaining({ id: support.id, members: 1 }));

      const cleared = await org.owner.client.patch(url, { defaultTeam: null }).expect(200);
      expectConforms(cleared, 'updateOrganizationSAMLProvider');
      expect(cleared.body).not.toHaveProperty('defaultTeam');
      expect(cleared.body.label).toBe('Okta SSO');
      const read = await org.owner.client.get(url).expect(200);
      expect(read.body).toEqual(cleared.body);
    });

    it("turns Bindery's idpInitiatedLogin on and off, the response still GitBook's", async () => {
      const org = await t.factories.organization();
      const created = await provider(org, { label: 'Okta', ...IDP, idpInitiatedLogin: true });
      expect(created.idpInitiatedLogin).toBe(true);
      const url = `${saml(org)}/${created.id}`;
      const off = await org.owner.client.patch(url, { idpInitiatedLogin: false }).expect(200);
      expectConforms(off, 'updateOrganizationSAMLProvider');
      expect(off.body).toEqual({ ...created, idpInitiatedLogin: false });
      const renamed = await org.owner.client.patch(url, { label: 'Okta 2' }).expect(200);
      expect(renamed.body.idpInitiatedLogin).toBe(false);
    });

    it('makes the provider pending again when an identity-provider value is cleared', async () => {
      const org = await t.factories.organization();
      const created = await provider(org);
      const res = await org.owner.client
        .patch(`${saml(org)}/${created.id}`, { ssoURL: null })
        .expect(200);
      expectConformsPending(res, 'updateOrganizationSAMLProvider');
      const logins = await org.owner.client.get(`/v1/orgs/${org.id}/sso`).expect(200);
      expect(logins.body.items).toEqual([]);
    });

    it('loses its default team when the team is deleted', async () => {
      const org = await t.factories.organization();
      const doomed = await team(org);
      const created = await provider(org, { label: 'Okta', ...IDP, defaultTeam: doomed.id });
      await t.dataSource.getRepository(Team).delete({ id: doomed.id });
      const res = await org.owner.client.get(`${saml(org)}/${created.id}`).expect(200);
      expect(res.body).not.toHaveProperty('defaultTeam');
      expectConforms(res, 'getOrganizationSAMLProviderById');
    });

    it.each([
      [{ label: null }, 'label'],
      [{ label: '' }, 'label'],
      [{ entityID: 7 }, 'entityID'],
      [
        { certificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' },
        'certificate',
      ],
      [{ ssoURL: 'ftp://idp.example.com' }, 'ssoURL'],
      [{ defaultTeam: 'no-such-team' }, 'defaultTeam'],
      [{ defaultRole: 'guest' }, 'defaultRole'],
      [{ idpInitiatedLogin: null }, 'idpInitiatedLogin'],
      [{ service: { acsURL: 'https://evil.example' } }, 'service'],
    ])('refuses %j with 400 naming %s, changing nothing', async (body, field) => {
      const org = await t.factories.organization();
      const created = await provider(org);
      const url = `${saml(org)}/${created.id}`;
      const res = await org.owner.client.patch(url, body).expect(400);
      expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining(field) } });
      const read = await org.owner.client.get(url).expect(200);
      expect(read.body).toEqual(created);
    });

    it("answers 404 for an unknown id, another organization's provider, or organization", async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const theirs = await provider(other);
      await org.owner.client.patch(`${saml(org)}/no-such-provider`, { label: 'X' }).expect(404);
      const crossed = await org.owner.client
        .patch(`${saml(org)}/${theirs.id}`, { label: 'X' })
        .expect(404);
      expect(crossed.body).toEqual({ error: { code: 404, message: 'SAML provider not found.' } });
      await org.owner.client.patch(`${saml(other)}/${theirs.id}`, { label: 'X' }).expect(404);
      const read = await other.owner.client.get(`${saml(other)}/${theirs.id}`).expect(200);
      expect(read.body.label).toBe('Okta');
    });

    it('answers 403 to a read member', async () => {
      const org = await t.factories.organization();
      const created = await provider(org);
      const member = await t.factories.asMember(org, 'read');
      await member.patch(`${saml(org)}/${created.id}`, { label: 'Mine' }).expect(403);
      const read = await org.owner.client.get(`${saml(org)}/${created.id}`).expect(200);
      expect(read.body.label).toBe('Okta');
    });
  });

  describe('DELETE /v1/orgs/{organizationId}/saml/{samlProviderId} (deleteOrganizationSAMLProvider)', () => {
    it('deletes the provider, and answers 204 again once it is gone', async () => {
      const org = await t.factories.organization();
      const created = await provider(org);
      const url = `${saml(org)}/${created.id}`;
      const res = await org.owner.client.delete(url).expect(204);
      expectConforms(res, 'deleteOrganizationSAMLProvider');
      await org.owner.client.get(url).expect(404);
      const again = await org.owner.client.delete(url).expect(204);
      expectConforms(again, 'deleteOrganizationSAMLProvider');
      const list = await org.owner.client.get(saml(org)).expect(200);
      expect(list.body.count).toBe(0);
    });

    it("leaves another organization's provider alone", async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const theirs = await provider(other);
      await org.owner.client.delete(`${saml(org)}/${theirs.id}`).expect(204);
      const hidden = await org.owner.client.delete(`${saml(other)}/${theirs.id}`).expect(404);
      expect(hidden.body).toEqual({ error: { code: 404, message: 'Organization not found.' } });
      await other.owner.client.get(`${saml(other)}/${theirs.id}`).expect(200);
    });

    it('answers 403 to a read member', async () => {
      const org = await t.factories.organization();
      const created = await provider(org);
      const member = await t.factories.asMember(org, 'read');
      await member.delete(`${saml(org)}/${created.id}`).expect(403);
      await org.owner.client.get(`${saml(org)}/${created.id}`).expect(200);
    });
  });

  describe('GET /v1/orgs/{organizationId}/sso (listSSOProviderLoginsInOrganization)', () => {
    it('lists the active providers, oldest first, to any member, guests included', async () => {
      const org = await t.factories.organization();
      t.clock.set('2026-06-01T00:00:00.000Z');
      const okta = await provider(org, { label: 'Okta', ...IDP });
      t.clock.set('2026-06-01T00:00:01.000Z');
      await provider(org, { label: 'Pending' });
      t.clock.set('2026-06-01T00:00:02.000Z');
      const entra = await provider(org, { label: 'Entra ID', ...IDP });
      await provider(await t.factories.organization());

      const guest = await t.factories.asMember(org, null);
      const res = await guest.get(`/v1/orgs/${org.id}/sso`).expect(200);
      expectConforms(res, 'listSSOProviderLoginsInOrganization');
      expect(res.body).toEqual({
        items: [
          { id: okta.id, label: 'Okta', startURL: `${TEST_PUBLIC_URL}/v1/saml/${okta.id}/start` },
          {
            id: entra.id,
            label: 'Entra ID',
            startURL: `${TEST_PUBLIC_URL}/v1/saml/${entra.id}/start`,
          },
        ],
      });
    });

    it('answers { items: [] } without providers', async () => {
      const org = await t.factories.organization();
      const res = await org.owner.client.get(`/v1/orgs/${org.id}/sso`).expect(200);
      expect(res.body).toEqual({ items: [] });
      expectConforms(res, 'listSSOProviderLoginsInOrganization');
    });

    it('answers 404 to another organization and for an unknown organization', async () => {
      const org = await t.factories.organization();
      await provider(org);
      const stranger = await t.factories.organization();
      const hidden = await stranger.owner.client.get(`/v1/orgs/${org.id}/sso`).expect(404);
      expect(hidden.body).toEqual({ error: { code: 404, message: 'Organization not found.' } });
      await stranger.owner.client.get('/v1/orgs/no-such-org/sso').expect(404);
    });
  });
});
