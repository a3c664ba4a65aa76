import { loadConfig } from '../config/app-config';
import type { JobsService } from '../jobs/jobs.service';
import { Mailer } from './mailer';

describe('Mailer', () => {
  it('is off without SMTP_URL: queues nothing and answers false', async () => {
    const send = jest.fn();
    const mailer = new Mailer({ send } as unknown as JobsService, loadConfig({}));
    expect(mailer.enabled).toBe(false);
    await expect(
      mailer.queue({} as never, { to: 'a@example.com', subject: 'Hi', text: 'Hi.' }),
    ).resolves.toBe(false);
    expect(send).not.toHaveBeenCalled();
    await expect(mailer.send({ to: 'a@example.com', subject: 'Hi', text: 'Hi.' })).rejects.toThrow(
      'SMTP_URL',
    );
  });

  it('refuses an SMTP_URL that is not smtp(s)://host, without echoing it', () => {
    for (const url of [
      'http://mail.example.com',
      'smtp://user:hunter2@host/path',
      'mail.example.com',
    ]) {
      let message = '';
      try {
        loadConfig({ SMTP_URL: url });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toContain('SMTP_URL must be');
      expect(message).not.toContain(url);
    }
    expect(loadConfig({ SMTP_URL: 'smtps://user:p%40ss@mail.example.com:465' }).SMTP_URL).toBe(
      'smtps://user:p%40ss@mail.example.com:465',
    );
  });

  it('refuses an SMTP_FROM that is not an address', () => {
    expect(() => loadConfig({ SMTP_FROM: 'Bindery' })).toThrow('SMTP_FROM must be');
    expect(loadConfig({ SMTP_FROM: 'docs@example.com' }).SMTP_FROM).toBe('docs@example.com');
  });
});
