import { randomBytes } from 'node:crypto';
import { createTestApp, TEST_PUBLIC_URL, TestApp } from './helpers/app';
import { BINDERY_DOCUMENT, expectConforms } from './helpers/conformance';
import type { TestOrganization } from './helpers/factories';
import { TEST_CERTIFICATE_PEM } from './fixtures/certificate';
import { SmtpReceiver } from './helpers/smtp-receiver';

const unique = () => randomBytes(4).toString('hex');
const newAddress = () => `new-${unique()}@example.com`;

/** The path and query of an invitation link, as the test app serves it. */
const pathOf = (url: string) => {
  expect(url.startsWith(`${TEST_PUBLIC_URL}/v1/invitations/`)).toBe(true);
  return url.slice(TEST_PUBLIC_URL.length);
};

/** Emailed invitations with email off: the API hands out the links. */
describe('email invitations (email off)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function invite(org: TestOrganization, email: string, role?: string | null) {
    const res = await org.owner.client
      .post(`/v1/orgs/${org.id}/invites`, {
        emails: [email],
        ...(role !== undefined ? { role } : {}),
      })
      .expect(200);
    expectConforms(res, 'inviteUsersToOrganization');
    return res.body.pendingInvites[0] as { id: string; url: string; email: string };
  }

  async function membership(organizationId: string, userId: string) {
    const rows: { role: string | null; sso: boolean }[] = await t.dataSource.query(
      'SELECT role, sso FROM organization_members WHERE organization_id = $1 AND user_id = $2',
      [organizationId, userId],
    );
    return rows[0] ?? null;
  }

  it('stores a pending invite whose link makes a user, a member at its role and a working token', async () => {
    const org = await t.factories.organization();
    const email = newAddress();
    const res = await org.owner.client
      .post(`/v1/orgs/${org.id}/invites`, { emails: [email.toUpperCase()], role: 'edit' })
      .expect(200);
    expect(res.body).toEqual({
      users: [],
      invited: 1,
      emailSent: false,
      pendingInvites: [
        {
          object: 'email-invite',
          id: expect.any(String),
          email,
          role: 'edit',
          sso: false,
          invitedBy: org.owner.id,
          createdAt: expect.any(String),
          expiresAt: expect.any(String),
          url: expect.any(String),
        },
      ],
    });
    const [pending] = res.body.pendingInvites;
    const hours = (Date.parse(pending.expiresAt) - Date.parse(pending.createdAt)) / 3_600_000;
    expect(Math.round(hours)).toBe(t.config.EMAIL_INVITE_TTL_HOURS);

    const list = await org.owner.client.get(`/v1/orgs/${org.id}/email-invites`).expect(200);
    expectConforms(list, 'listOrganizationEmailInvites', BINDERY_DOCUMENT);
    expect(list.body.items).toEqual([pending]);

    const page = await t.anonymous.get(pathOf(pending.url)).expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.text).toContain(`Join ${org.title}`);
    expect(page.text.replace(/\s+/g, ' ')).toContain(
      `as an editor, with the address <strong>${email}</strong>`,
    );
    expect(page.text).toContain('<form method="post"');

    const accepted = await t.anonymous
      .post(pathOf(pending.url), { displayName: 'Ada Newcomer' })
      .expect(201);
    expectConforms(accepted, 'acceptInvitation', BINDERY_DOCUMENT);
    expect(accepted.body).toEqual({
      object: 'accepted-invitation',
      organizationId: org.id,
      user: { id: expect.any(String), email, displayName: 'Ada Newcomer' },
      token: expect.stringMatching(/^bnd_/),
    });
    const newcomer = t.as(accepted.body.token);
    const me = await newcomer.get('/v1/user').expect(200);
    expect(me.body.id).toBe(accepted.body.user.id);
    await newcomer.get(`/v1/orgs/${org.id}`).expect(200);
    expect(await membership(org.id, me.body.id)).toEqual({ role: 'edit', sso: false });

    // Used up: gone from the list, and its link answers 404.
    const after = await org.owner.client.get(`/v1/orgs/${org.id}/email-invites`).expect(200);
    expect(after.body.items).toEqual([]);
    const again = await t.anonymous.post(pathOf(pending.url), {}).expect(404);
    expect(again.body.error).toEqual({
      code: 404,
      message: expect.stringMatching(/no longer valid/),
    });
    const gonePage = await t.anonymous.get(pathOf(pending.url)).expect(404);
    expect(gonePage.text).toContain('no longer valid');
  });

  it('accepts with the form of the page and shows the token on a page', async () => {
    const org = await t.factories.organization();
    const pending = await invite(org, newAddress(), null);
    const res = await t.anonymous
      .post(pathOf(pending.url))
      .type('form')
      .send({ displayName: '<b>Grace</b>' })
      .expect(201);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain(`Welcome to ${org.title}`);
    expect(res.text).not.toContain('<b>Grace</b>');
    const token = /<pre>(bnd_[A-Za-z0-9_-]+)<\/pre>/.exec(res.text)?.[1];
    expect(token).toBeDefined();
    const me = await t.as(token!).get('/v1/user').expect(200);
    expect(me.body.displayName).toBe('<b>Grace</b>');
    expect(await membership(org.id, me.body.id)).toEqual({ role: null, sso: false });
  });

  it('joins a user who has taken the address since, without a new token', async () => {
    const org = await t.factories.organization();
    const email = newAddress();
    const pending = await invite(org, email);
    const user = await t.factories.user({ email });
    const res = await t.anonymous.post(pathOf(pending.url), {}).expect(201);
    expect(res.body).toEqual({
      object: 'accepted-invitation',
      organizationId: org.id,
      user: { id: user.id, email, displayName: user.displayName },
    });
    expect(await membership(org.id, user.id)).toEqual({ role: 'read', sso: false });
  });

  it('refuses a tampered, renewed, revoked or expired link, and creates nobody', async () => {
    const org = await t.factories.organization();
    const email = newAddress();
    const first = await invite(org, email);
    const tampered = first.url.replace(/signature=[^&]+/, 'signature=AAAA');
    await t.anonymous.post(pathOf(tampered), {}).expect(404);
    const noSignature = first.url.replace(/&signature=[^&]+/, '');
    await t.anonymous.post(pathOf(noSignature), {}).expect(404);

    // Inviting again renews the invite: the first link stops working, the new one works.
    const second = await invite(org, email, 'admin');
    expect(second.url).not.toBe(first.url);
    await t.anonymous.post(pathOf(first.url), {}).expect(404);
    const list = await org.owner.client.get(`/v1/orgs/${org.id}/email-invites`).expect(200);
    expect(list.body.items.map((i: { role: string }) => i.role)).toEqual(['admin']);

    await org.owner.client.delete(`/v1/orgs/${org.id}/email-invites/${second.id}`).expect(204);
    const revoked = await t.anonymous.get(pathOf(second.url)).expect(404);
    expect(revoked.text).toContain('no longer valid');
    await t.anonymous.post(pathOf(second.url), {}).expect(404);

    const third = await invite(org, email);
    t.clock.set(new Date(Date.now() + (t.config.EMAIL_INVITE_TTL_HOURS + 1) * 3_600_000));
    try {
      const expired = await t.anonymous.post(pathOf(third.url), {}).expect(403);
      expect(expired.body.error.message).toMatch(/expired/);
      const page = await t.anonymous.get(pathOf(third.url)).expect(403);
      expect(page.text).toContain('has expired');
      const list = await org.owner.client.get(`/v1/orgs/${org.id}/email-invites`).expect(200);
      expect(list.body.items).toEqual([]);
    } finally {
      t.clock.resume();
    }
    const users = await t.dataSource.query('SELECT 1 FROM users WHERE email = $1', [email]);
    expect(users).toHaveLength(0);
  });

  it('sends an organization that signs in with SSO through its identity provider', async () => {
    const org = await t.factories.organization();
    await org.owner.client.patch(`/v1/orgs/${org.id}`, { sso: true }).expect(200);
    const pending = await invite(org, newAddress());
    const page = await t.anonymous.get(pathOf(pending.url)).expect(200);
    expect(page.text).toContain('single sign-on');
    expect(page.text).toContain('no identity provider ready yet');
    expect(page.text).not.toContain('<form');
    const provider = await org.owner.client
      .post(`/v1/orgs/${org.id}/saml`, {
        label: 'Okta',
        entityID: 'https://idp.example.com',
        ssoURL: 'https://idp.example.com/sso',
        certificate: TEST_CERTIFICATE_PEM,
      })
      .expect(201);
    const withProvider = await t.anonymous.get(pathOf(pending.url)).expect(200);
    expect(withProvider.text).toContain(
      `<a href="${provider.body.service.startURL}">Sign in with Okta</a>`,
    );
    const res = await t.anonymous.post(pathOf(pending.url), {}).expect(403);
    expect(res.body.error.message).toMatch(/single sign-on/);
  });

  it('refuses a bad display name with a 400', async () => {
    const org = await t.factories.organization();
    const pending = await invite(org, newAddress());
    const res = await t.anonymous
      .post(pathOf(pending.url), { displayName: 'x'.repeat(256) })
      .expect(400);
    expect(res.body.error).toEqual({ code: 400, message: expect.stringMatching(/displayName/) });
    await t.anonymous.post(pathOf(pending.url), { displayName: 5 }).expect(400);
    // Nothing used up.
    await t.anonymous.post(pathOf(pending.url), {}).expect(201);
  });

  describe('listOrganizationEmailInvites and revokeOrganizationEmailInvite', () => {
    it('answers 400, 404, another organization 404 and a non-admin 403', async () => {
      const org = await t.factories.organization();
      const pending = await invite(org, newAddress());
      const bad = await org.owner.client
        .get(`/v1/orgs/${org.id}/email-invites?limit=abc`)
        .expect(400);
      expect(bad.body.error).toEqual({ code: 400, message: expect.any(String) });
      await org.owner.client.delete(`/v1/orgs/${org.id}/email-invites/nope`).expect(404);
      await org.owner.client.get(`/v1/orgs/nope/email-invites`).expect(404);

      const other = await t.factories.organization();
      await other.owner.client.get(`/v1/orgs/${org.id}/email-invites`).expect(404);
      await other.owner.client.delete(`/v1/orgs/${org.id}/email-invites/${pending.id}`).expect(404);
      // Another organization's admin cannot revoke it through their own organization either.
      await other.owner.client
        .delete(`/v1/orgs/${other.id}/email-invites/${pending.id}`)
        .expect(404);

      const editor = await t.factories.member(org, 'edit');
      await editor.client.get(`/v1/orgs/${org.id}/email-invites`).expect(403);
      await editor.client.delete(`/v1/orgs/${org.id}/email-invites/${pending.id}`).expect(403);

      const list = await org.owner.client.get(`/v1/orgs/${org.id}/email-invites`).expect(200);
      expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([pending.id]);
    });
  });
});

/** With email on, the invitation goes to the address, and the API keeps the link to itself. */
describe('email invitations (email on)', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;

  beforeAll(async () => {
    smtp = await SmtpReceiver.start();
    t = await createTestApp({ SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('emails the link; following it from the email makes a member with a working token', async () => {
    const org = await t.factories.organization();
    const email = newAddress();
    const res = await org.owner.client
      .post(`/v1/orgs/${org.id}/invites`, { emails: [email], role: 'review' })
      .expect(200);
    expectConforms(res, 'inviteUsersToOrganization');
    expect(res.body.emailSent).toBe(true);
    expect(res.body.pendingInvites[0].url).toBeUndefined();
    const list = await org.owner.client.get(`/v1/orgs/${org.id}/email-invites`).expect(200);
    expect(list.body.items[0].url).toBeUndefined();

    await smtp.waitFor(() => smtp.to(email).length === 1);
    const [{ mail }] = smtp.to(email);
    expect(mail.subject).toBe(`${org.owner.displayName} invited you to join ${org.title}`);
    const text = mail.text ?? '';
    expect(text).toContain(`invited you to join ${org.title} as a reviewer.`);
    const link = /Accept the invitation: (\S+)/.exec(text)?.[1];
    expect(link).toBeDefined();

    const page = await t.anonymous.get(pathOf(link!)).expect(200);
    const action = /<form method="post" action="([^"]+)"/.exec(page.text)?.[1];
    expect(action).toBeDefined();
    const accepted = await t.anonymous
      .post(pathOf(action!.replace(/&amp;/g, '&')))
      .type('form')
      .send({ displayName: 'Reviewer' })
      .expect(201);
    const token = /<pre>(bnd_[A-Za-z0-9_-]+)<\/pre>/.exec(accepted.text)?.[1];
    const org2 = await t.as(token!).get(`/v1/orgs/${org.id}`).expect(200);
    expect(org2.body.id).toBe(org.id);
    const members = await org.owner.client.get(`/v1/orgs/${org.id}/members`).expect(200);
    expect(
      members.body.items.find((m: { user: { email: string } }) => m.user.email === email)?.role,
    ).toBe('review');
  });

  it('emails nobody when the invitation is refused', async () => {
    const org = await t.factories.organization();
    const email = newAddress();
    await org.owner.client
      .post(`/v1/orgs/${org.id}/invites`, { emails: [email], role: 'owner' })
      .expect(400);
    await org.owner.client.post(`/v1/orgs/${org.id}/invites`, { emails: [email] }).expect(200);
    await smtp.waitFor(() => smtp.to(email).length === 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.to(email)).toHaveLength(1);
  });
});
