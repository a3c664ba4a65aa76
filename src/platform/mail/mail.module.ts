import { Global, Module } from '@nestjs/common';
import { Mailer } from './mailer';

/** Email through SMTP (SMTP_URL), for every module. */
@Global()
@Module({ providers: [Mailer], exports: [Mailer] })
export class MailModule {}
