import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import type { EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { JobsService } from '../jobs/jobs.service';

export const MAIL_QUEUE = 'mail-send';

/** Retries of a message the server refused for now: after 2–4 s, doubling, about 2 hours. */
const RETRIES = 12;
const RETRY_DELAY_SECONDS = 2;

/** One email. Every one has a text part; an HTML part may go beside it. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * Bindery's email, through the SMTP server of SMTP_URL (nodemailer), from SMTP_FROM. A service
 * queues a message in the transaction of the change it tells of: it is sent by a job once that
 * commits, never for a change rolled back, and retried while the server refuses it for now.
 * Without SMTP_URL email is off: `queue` answers false, and the caller says so (an invitation
 * answers its link instead).
 */
@Injectable()
export class Mailer implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Mail');
  private readonly transport?: Transporter;

  constructor(
    private readonly jobs: JobsService,
    private readonly config: AppConfig,
  ) {
    this.transport = config.SMTP_URL
      ? createTransport(config.SMTP_URL, { from: config.SMTP_FROM })
      : undefined;
  }

  /** Whether email is on (SMTP_URL set). */
  get enabled(): boolean {
    return this.transport !== undefined;
  }

  onModuleInit(): void {
    this.jobs.define<MailMessage>(MAIL_QUEUE, (message) => this.send(message));
  }

  /** Queues `message` in `manager`'s transaction; false when email is off. */
  async queue(manager: EntityManager, message: MailMessage): Promise<boolean> {
    if (!this.transport) return false;
    await this.jobs.send<MailMessage>(MAIL_QUEUE, message, {
      manager,
      retryLimit: RETRIES,
      retryDelay: RETRY_DELAY_SECONDS,
      retryBackoff: true,
    });
    return true;
  }

  /** Sends at once (the queue's handler); throws when the server refuses. */
  async send(message: MailMessage): Promise<void> {
    if (!this.transport) throw new Error('Email is off: SMTP_URL is not set');
    const { to, subject, text, html } = message;
    const info = (await this.transport.sendMail({ to, subject, text, html })) as {
      messageId?: string;
    };
    this.logger.log({ messageId: info.messageId, subject }, 'Email sent');
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
