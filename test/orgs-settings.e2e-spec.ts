import { randomBytes } from 'node:crypto';
import { createTestApp, TestApp } from './helpers/app';
import { expectConforms } from './helpers/conformance';

const unique = () => randomBytes(4).toString('hex');

describe('organization settings and search', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('PATCH /v1/orgs/{organizationId} (updateOrganizationById)', () => {
    it('updates every field and reads back the same organization', async () => {
      const org = await t.factories.organization();
      const reviewer = await t.factories.member(org, 'review');
      const hostname = `acme-${unique()}`;
      const res = await org.owner.client
        .patch(`/v1/orgs/${org.id}`, {
          title: '  Acme Handbook ',
          emailDomains: ['Acme.example', 'acme.example', 'docs.acme.example'],
          hostname,
          defaultRole: 'edit',
          defaultContent: null,
          logo: 'https://cdn.example.com/logo.png',
          sso: true,
          ai: false,
          inviteLinks: false,
          mergeRules: {
            type: 'rules',
            rules: [
              { rule: 'require_specific_reviewers', users: [reviewer.id, reviewer.id] },
              { rule: 'require_at_least_one_review' },
              { rule: 'custom', expression: 'changeRequest.subject != ""' },
            ],
          },
        })
        .expect(200);
      expectConforms(res, 'updateOrganizationById');
      expect(res.body).toEqual(
        expect.objectContaining({
          id: org.id,
          title: 'Acme Handbook',
          emailDomains: ['acme.example', 'docs.acme.example'],
          hostname,
          defaultRole: 'edit',
          sso: true,
          ai: false,
          inviteLinks: false,
          mergeRules: {
            type: 'rules',
            rules: [
              { rule: 'require_specific_reviewers', users: [reviewer.id] },
              { rule: 'require_at_least_one_review' },
              { rule: 'custom', expression: 'changeRequest.subject != ""' },
            ],
          },
        }),
      );
      expect(res.body.urls.logo).toBe('https://cdn.example.com/logo.png');
      expect(res.body).not.toHaveProperty('defaultContent');
      expect(res.body.permissions.admin).toBe(true);

      const read = await org.owner.client.get(`/v1/orgs/${org.id}`).expect(200);
      expect(read.body).toEqual(res.body);
    });

    it('changes nothing for an empty body', async () => {
      const org = await t.factories.organization();
      const before = await org.owner.client.get(`/v1/orgs/${org.id}`).expect(200);
      const res = await org.owner.client.patch(`/v1/orgs/${org.id}`, {}).expect(200);
      expectConforms(res, 'updateOrganizationById');
      expect(res.body).toEqual(before.body);
      const [row] = await t.dataSource.query(
        'SELECT updated_at, created_at FROM organizations WHERE id = $1',
        [org.id],
      );
      expect(row.updated_at).toEqual(row.created_at);
    });

    it('leaves absent fields unchanged and stamps updatedAt from the clock', async () => {
      const org = await t.factories.organization();
      await org.owner.client
        .patch(`/v1/orgs/${org.id}`, { emailDomains: ['kept.example'], ai: false })
        .expect(200);
      t.clock.set('2026-07-01T10:00:00.000Z');
      const res = await org.owner.client
        .patch(`/v1/orgs/${org.id}`, { title: 'Only the title' })
        .expect(200);
      expect(res.body).toEqual(
        expect.objectContaining({
          title: 'Only the title',
          emailDomains: ['kept.example'],
          ai: false,
          inviteLinks: true,
          defaultRole: 'read',
          mergeRules: { type: 'none' },
        }),
      );
      const [row] = await t.dataSource.query('SELECT updated_at FROM organizations WHERE id = $1', [
        org.id,
      ]);
      expect(new Date(row.updated_at).toISOString()).toBe('2026-07-01T10:00:00.000Z');
    });

    it('clears hostname, logo and defaultRole with null, and turns merge rules off', async () => {
      const org = await t.factories.organization();
      await org.owner.client
        .patch(`/v1/orgs/${org.id}`, {
          hostname: `clear-${unique()}`,
          logo: 'http://intranet/logo.svg',
          mergeRules: { type: 'rules', rules: [{ rule: 'require_agent_review' }] },
        })
        .expect(200);
      const res = await org.owner.client
        .patch(`/v1/orgs/${org.id}`, {
          hostname: null,
          logo: null,
          defaultRole: null,
          mergeRules: { type: 'none' },
        })
        .expect(200);
      expectConforms(res, 'updateOrganizationById');
      expect(res.body).not.toHaveProperty('hostname');
      expect(res.body.urls).not.toHaveProperty('logo');
      expect(res.body.defaultRole).toBeNull();
      expect(res.body.mergeRules).toEqual({ type: 'none' });
      const read = await org.owner.client.get(`/v1/orgs/${org.id}`).expect(200);
      expect(read.body).toEqual(res.body);
    });

    it.each([
      [{ title: null }, 'title'],
      [{ title: 'A' }, 'title'],
      [{ title: '  A  ' }, 'title'],
      [{ title: 'x'.repeat(256) }, 'title'],
      [{ emailDomains: null }, 'emailDomains'],
      [{ emailDomains: 'acme.example' }, 'emailDomains'],
      [{ emailDomains: ['not a domain'] }, 'emailDomains'],
      [{ hostname: 'ab' }, 'hostname'],
      [{ hostname: 'x'.repeat(33) }, 'hostname'],
      [{ hostname: '-acme' }, 'hostname'],
      [{ hostname: 'acme-' }, 'hostname'],
      [{ hostname: 'Acme' }, 'hostname'],
      [{ hostname: 'ac me' }, 'hostname'],
      [{ hostname: 42 }, 'hostname'],
      [{ defaultRole: 'owner' }, 'defaultRole'],
      [{ defaultRole: 'guest' }, 'defaultRole'],
      [{ defaultContent: { type: 'space', site: 'abc' } }, 'defaultContent.type'],
      [{ defaultContent: { type: 'site' } }, 'defaultContent.site'],
      [{ defaultContent: { type: 'site', site: 'nope' } }, 'defaultContent.site'],
      [{ defaultContent: 'site' }, 'defaultContent'],
      [{ logo: 'not a url' }, 'logo'],
      [{ logo: 'ftp://example.com/logo.png' }, 'logo'],
      [{ logo: `https://example.com/${'x'.repeat(2040)}` }, 'logo'],
      [{ sso: null }, 'sso'],
      [{ sso: 'yes' }, 'sso'],
      [{ ai: null }, 'ai'],
      [{ inviteLinks: 1 }, 'inviteLinks'],
      [{ mergeRules: null }, 'mergeRules'],
      [{ mergeRules: { type: 'inherit' } }, 'mergeRules.type'],
      [{ mergeRules: { type: 'rules' } }, 'mergeRules.rules'],
      [{ mergeRules: { type: 'rules', rules: [{ rule: 'nope' }] } }, 'mergeRules.rules.0.rule'],
      [
        { mergeRules: { type: 'rules', rules: [{ rule: 'allow_bypass' }] } },
        'mergeRules.rules.0.users',
      ],
      [
        {
          mergeRules: { type: 'rules', rules: [{ rule: 'custom', expression: 'x'.repeat(1025) }] },
        },
        'mergeRules.rules.0.expression',
      ],
      [
        { mergeRules: { type: 'rules', rules: [{ rule: 'require_agent_review', users: [] }] } },
        'mergeRules.rules.0.users',
      ],
      [{ plan: 'free_2024' }, 'plan'],
      [{ title: 'Fine', type: 'community' }, 'type'],
    ])('refuses %j with 400 naming %s, changing nothing', async (body, field) => {
      const org = await t.factories.organization();
      const before = await org.owner.client.get(`/v1/orgs/${org.id}`).expect(200);
      const res = await org.owner.client.patch(`/v1/orgs/${org.id}`, body).expect(400);
      expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining(field) } });
      expectConforms(res, 'updateOrganizationById');
      const after = await org.owner.client.get(`/v1/orgs/${org.id}`).expect(200);
      expect(after.body).toEqual(before.body);
    });

    it('refuses a default site, since the organization has none (400)', async () => {
      const org = await t.factories.organization();
      const res = await org.owner.client
        .patch(`/v1/orgs/${org.id}`, { defaultContent: { type: 'site', site: 'site123' } })
        .expect(400);
      expect(res.body.error.message).toBe(
        'defaultContent.site: site site123 not found in this organization.',
      );
    });

    it('refuses merge-rule users who are not active members of the organization', async () => {
      const org = await t.factories.organization();
      const other = await t.factories.organization();
      const disabled = await t.factories.member(org, 'admin');
      await t.dataSource.query(
        'UPDATE organization_members SET disabled = true WHERE organization_id = $1 AND user_id = $2',
        [org.id, disabled.id],
      );
      const guest = await t.factories.member(org, null);
      for (const [stranger, index] of [
        [other.owner.id, 1],
        [disabled.id, 1],
        ['no-such-user', 1],
      ] as const) {
        const res = await org.owner.client
          .patch(`/v1/orgs/${org.id}`, {
            mergeRules: {
              type: 'rules',
              rules: [
                { rule: 'allow_bypass', users: [org.owner.id] },
                { rule: 'require_one_of_specific_reviewers', users: [guest.id, stranger] },
              ],
            },
          })
          .expect(400);
        expect(res.body.error.message).toBe(
          `mergeRules.rules.${index}.users: user ${stranger} is not a member of this organization.`,
        );
      }
      const read = await org.owner.client.get(`/v1/orgs/${org.id}`).expect(200);
      expect(read.body.mergeRules).toEqual({ type: 'none' });
    });

    it('keeps hostnames unique across organizations (409), and lets an organization keep its own', async () => {
      const hostname = `taken-${unique()}`;
      const first = await t.factories.organization();
      const second = await t.factories.organization();
      await first.owner.client.patch(`/v1/orgs/${first.id}`, { hostname }).expect(200);
      await first.owner.client.patch(`/v1/orgs/${first.id}`, { hostname }).expect(200);
      const res = await second.owner.client
        .patch(`/v1/orgs/${second.id}`, { hostname, title: 'Renamed' })
        .expect(409);
      expect(res.body).toEqual({
        error: { code: 409, message: expect.stringContaining('hostname already taken') },
      });
      const read = await second.owner.client.get(`/v1/orgs/${second.id}`).expect(200);
      expect(read.body).not.toHaveProperty('hostname');
      expect(read.body.title).toBe(second.title);

      await first.owner.client.patch(`/v1/orgs/${first.id}`, { hostname: null }).expect(200);
      await second.owner.client.patch(`/v1/orgs/${second.id}`, { hostname }).expect(200);
    });

    it('answers 404 for an unknown organization and for an admin of another one', async () => {
      const org = await t.factories.organization();
      const stranger = await t.factories.organization();
      const hidden = await stranger.owner.client
        .patch(`/v1/orgs/${org.id}`, { title: 'Mine now' })
        .expect(404);
      const unknown = await stranger.owner.client
        .patch('/v1/orgs/no-such-org', { title: 'Mine now' })
        .expect(404);
      expect(hidden.body).toEqual(unknown.body);
      expect(hidden.body).toEqual({ error: { code: 404, message: 'Organization not found.' } });
      const read = await org.owner.client.get(`/v1/orgs/${org.id}`).expect(200);
      expect(read.body.title).toBe(org.title);
    });

    it.each([['create'], ['read'], [null]] as const)(
      'answers 403 to a %p member (null: guest)',
      async (role) => {
        const org = await t.factories.organization();
        const member = await t.factories.asMember(org, role);
        const res = await member.patch(`/v1/orgs/${org.id}`, { title: 'Nope' }).expect(403);
        expect(res.body.error.code).toBe(403);
        const read = await org.owner.client.get(`/v1/orgs/${org.id}`).expect(200);
        expect(read.body.title).toBe(org.title);
      },
    );

    it('answers 403 to the administrator token', async () => {
      const org = await t.factories.organization();
      await t.admin.patch(`/v1/orgs/${org.id}`, { title: 'Nope' }).expect(403);
    });
  });

  describe('GET /v1/orgs/{organizationId}/search (searchOrganizationContent)', () => {
    it.each([['read'], ['admin']] as const)(
      'answers a %s member with the (empty, last) page of results',
      async (role) => {
        const org = await t.factories.organization();
        const member = await t.factories.asMember(org, role);
        const res = await member
          .get(`/v1/orgs/${org.id}/search?query=${encodeURIComponent('getting started')}&limit=5`)
          .expect(200);
        expectConforms(res, 'searchOrganizationContent');
        expect(res.body).toEqual({ items: [], count: 0 });
      },
    );

    it('accepts a query of 512 characters', async () => {
      const org = await t.factories.organization();
      const res = await org.owner.client
        .get(`/v1/orgs/${org.id}/search?query=${'q'.repeat(512)}`)
        .expect(200);
      expect(res.body.items).toEqual([]);
    });

    it.each([
      ['', 'query'],
      ['?query=', 'query'],
      ['?query=%20%20', 'query'],
      [`?query=${'q'.repeat(513)}`, 'query'],
      ['?query=a&limit=0', 'limit'],
      ['?query=a&limit=1001', 'limit'],
      ['?query=a&page=not-a-page', 'page'],
      ['?query=a&sort=title', 'sort'],
    ])('refuses %s with 400 naming %s', async (search, field) => {
      const org = await t.factories.organization();
      const res = await org.owner.client.get(`/v1/orgs/${org.id}/search${search}`).expect(400);
      expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining(field) } });
    });

    it('lets a guest search, finding only the spaces granted to it', async () => {
      const org = await t.factories.organization();
      await t.factories.space(org, { title: 'Hidden', template: { id: 'product-docs' } });
      const guest = await t.factories.asMember(org, null);
      const res = await guest.get(`/v1/orgs/${org.id}/search?query=faq`).expect(200);
      expect(res.body.items).toEqual([]);
      const member = await t.factories.asMember(org, 'read');
      const found = await member.get(`/v1/orgs/${org.id}/search?query=faq`).expect(200);
      expect(found.body.items).toHaveLength(1);
    });

    it('answers 404 for an unknown organization and for a member of another one', async () => {
      const org = await t.factories.organization();
      const stranger = await t.factories.organization();
      const hidden = await stranger.owner.client
        .get(`/v1/orgs/${org.id}/search?query=a`)
        .expect(404);
      const unknown = await stranger.owner.client
        .get('/v1/orgs/no-such-org/search?query=a')
        .expect(404);
      expect(hidden.body).toEqual(unknown.body);
      expect(hidden.body).toEqual({ error: { code: 404, message: 'Organization not found.' } });
    });
  });
});
