import { createTestApp, TestApp } from './helpers/app';
import { SmtpReceiver } from './helpers/smtp-receiver';

/** With email on (SMTP_URL), asking for a review emails each reviewer. */
describe('review request emails', () => {
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

  it('emails each user asked to review, with a link to the change request, once it commits', async () => {
    const org = await t.factories.organization();
    const space = await t.factories.space(org, { title: 'Handbook' });
    const [ada, grace] = [
      await t.factories.member(org, 'review'),
      await t.factories.member(org, 'review'),
    ];
    const cr = await t.factories.changeRequest(org, space.id, { subject: 'Fix the intro' });
    const res = await org.owner.client
      .post(`/v1/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers`, {
        users: [ada.id, grace.id],
      })
      .expect(200);
    expect(res.body.users).toHaveLength(2);

    await smtp.waitFor(() => smtp.to(ada.email).length === 1 && smtp.to(grace.email).length === 1);
    const [{ mail }] = smtp.to(ada.email);
    expect(mail.subject).toBe(`${org.owner.displayName} asked you to review "Fix the intro"`);
    const text = mail.text ?? '';
    expect(text).toContain(`Hello ${ada.displayName},`);
    expect(text).toContain(`change request #${cr.number}, "Fix the intro", in Handbook`);
    const link = /Open it: (\S+)/.exec(text)?.[1];
    expect(link).toBe(cr.urls.app);
    expect(smtp.to(org.owner.email)).toHaveLength(0);
  });

  it('emails nobody when the request is refused', async () => {
    const org = await t.factories.organization();
    const space = await t.factories.space(org);
    const outsider = await t.factories.user();
    const cr = await t.factories.changeRequest(org, space.id, { subject: 'Nope' });
    await org.owner.client
      .post(`/v1/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers`, {
        users: [outsider.id],
      })
      .expect(400);
    const member = await t.factories.member(org, 'review');
    await org.owner.client
      .post(`/v1/spaces/${space.id}/change-requests/${cr.id}/requested-reviewers`, {
        users: [member.id],
      })
      .expect(200);
    await smtp.waitFor(() => smtp.to(member.email).length === 1);
    expect(smtp.to(outsider.email)).toHaveLength(0);
  });
});
