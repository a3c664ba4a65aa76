import { Mailer } from '../../src/platform/mail/mailer';
import { createTestApp, TestApp } from '../helpers/app';
import { SmtpReceiver } from '../helpers/smtp-receiver';

/** Email through a real SMTP server on loopback (smtp-server), parsed as a mail client would. */
describe('email (SMTP)', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;

  beforeAll(async () => {
    smtp = await SmtpReceiver.start();
    t = await createTestApp({ SMTP_URL: smtp.url, SMTP_FROM: 'Docs <docs@bindery.test>' });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('sends a message queued in a transaction once it commits, with its text and HTML parts', async () => {
    const mailer = t.bindery.app.get(Mailer);
    expect(mailer.enabled).toBe(true);
    const queued = await t.dataSource.transaction((manager) =>
      mailer.queue(manager, {
        to: 'ada@example.com',
        subject: 'Welcome to Bindery',
        text: 'Hello Ada,\n\nFollow https://bindery.test/accept?x=1 to join.',
        html: '<p>Hello Ada,</p><p><a href="https://bindery.test/accept?x=1">Join</a></p>',
      }),
    );
    expect(queued).toBe(true);
    await smtp.waitFor(() => smtp.to('ada@example.com').length === 1);
    const [{ from, mail }] = smtp.to('ada@example.com');
    expect(from).toBe('docs@bindery.test');
    expect(mail.from?.value).toEqual([{ address: 'docs@bindery.test', name: 'Docs' }]);
    expect(mail.subject).toBe('Welcome to Bindery');
    expect(mail.text?.trim()).toBe('Hello Ada,\n\nFollow https://bindery.test/accept?x=1 to join.');
    expect(mail.html).toContain('<a href="https://bindery.test/accept?x=1">Join</a>');
  });

  it('sends nothing for a transaction rolled back', async () => {
    const mailer = t.bindery.app.get(Mailer);
    await expect(
      t.dataSource.transaction(async (manager) => {
        await mailer.queue(manager, { to: 'nobody@example.com', subject: 'No', text: 'No.' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await t.dataSource.transaction((manager) =>
      mailer.queue(manager, { to: 'after@example.com', subject: 'After', text: 'After.' }),
    );
    await smtp.waitFor(() => smtp.to('after@example.com').length === 1);
    expect(smtp.to('nobody@example.com')).toHaveLength(0);
  });

  it('retries a message the server refuses for now, until it is accepted', async () => {
    const mailer = t.bindery.app.get(Mailer);
    let refusals = 1;
    smtp.refuse = (recipient) => recipient === 'later@example.com' && refusals-- > 0;
    await t.dataSource.transaction((manager) =>
      mailer.queue(manager, { to: 'later@example.com', subject: 'Later', text: 'Later.' }),
    );
    await smtp.waitFor(() => smtp.to('later@example.com').length === 1, 20_000);
    expect(smtp.refused).toBe(1);
    smtp.refuse = () => false;
  }, 30_000);
});
