import { paragraphDocument } from './helpers/comments';
import { createTestApp, TestApp } from './helpers/app';
import { SmtpReceiver } from './helpers/smtp-receiver';

/** A comment's body: a paragraph of `text` then a mention of each user. */
function mentioning(text: string, ...userIds: string[]): object {
  const document = paragraphDocument(text);
  const [paragraph] = document.nodes as { nodes: object[] }[];
  paragraph.nodes.push(
    ...userIds.map((user) => ({
      object: 'inline',
      type: 'mention',
      isVoid: true,
      data: { ref: { kind: 'user', user } },
    })),
  );
  return document;
}

/** With email on (SMTP_URL), a comment or reply that mentions users emails those who can see it. */
describe('mention emails', () => {
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

  it('emails the mentioned users who can see the space, not the author; an edit only the new ones', async () => {
    const org = await t.factories.organization();
    const space = await t.factories.space(org, { title: 'Handbook' });
    const ada = await t.factories.member(org, 'read');
    const grace = await t.factories.member(org, 'comment');
    const guest = await t.factories.member(org, null);
    const owner = org.owner;
    const posted = await owner.client
      .post(`/v1/spaces/${space.id}/comments`, {
        body: { document: mentioning('Please look at the intro ', ada.id, guest.id, owner.id) },
      })
      .expect(201);

    await smtp.waitFor(() => smtp.to(ada.email).length === 1);
    const [{ mail }] = smtp.to(ada.email);
    expect(mail.subject).toBe(`${owner.displayName} mentioned you in a comment in Handbook`);
    expect(mail.text).toContain(`Hello ${ada.displayName},`);
    expect(mail.text).toContain('> Please look at the intro');
    expect(/Open it: (\S+)/.exec(mail.text ?? '')?.[1]).toBe(space.urls.app);

    await owner.client
      .put(`/v1/spaces/${space.id}/comments/${posted.body.id as string}`, {
        body: { document: mentioning('Please look at the intro ', ada.id, grace.id) },
      })
      .expect(200);
    await smtp.waitFor(() => smtp.to(grace.email).length === 1);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.to(ada.email)).toHaveLength(1);
    expect(smtp.to(guest.email)).toHaveLength(0);
    expect(smtp.to(owner.email)).toHaveLength(0);
  });

  it('emails a user mentioned in a reply on a change request, with a link to it', async () => {
    const org = await t.factories.organization();
    const space = await t.factories.space(org, { title: 'Guides' });
    const ada = await t.factories.member(org, 'read');
    const cr = await t.factories.changeRequest(org, space.id, { subject: 'Draft' });
    const base = `/v1/spaces/${space.id}/change-requests/${cr.id}/comments`;
    const comment = await org.owner.client.post(base, { body: { markdown: 'First.' } }).expect(201);
    await org.owner.client
      .post(`${base}/${comment.body.id as string}/replies`, {
        body: { document: mentioning('What do you think? ', ada.id) },
      })
      .expect(201);
    await smtp.waitFor(() => smtp.to(ada.email).length === 1);
    const [{ mail }] = smtp.to(ada.email);
    expect(mail.subject).toBe(
      `${org.owner.displayName} mentioned you in a comment in change request #${cr.number} of Guides`,
    );
    expect(/Open it: (\S+)/.exec(mail.text ?? '')?.[1]).toBe(cr.urls.app);
  });
});
