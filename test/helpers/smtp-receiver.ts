import { type ParsedMail, simpleParser } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';

/** A message the receiver accepted: its envelope and the parsed message. */
export interface ReceivedMail {
  from: string;
  to: string[];
  mail: ParsedMail;
}

/**
 * An SMTP server on 127.0.0.1 (a random port) that accepts every message with any credentials
 * (no TLS), parses it and keeps it. `refuse` answers a recipient with a temporary failure
 * (451) while it returns true.
 */
export class SmtpReceiver {
  readonly messages: ReceivedMail[] = [];
  refuse: (recipient: string) => boolean = () => false;
  /** Recipients refused so far. */
  refused = 0;
  private readonly server: SMTPServer;

  private constructor() {
    this.server = new SMTPServer({
      secure: false,
      disabledCommands: ['STARTTLS'],
      authOptional: true,
      onAuth: (_auth, _session, callback) => callback(null, { user: 'test' }),
      onRcptTo: (address: SMTPServerAddress, _session, callback) => {
        if (!this.refuse(address.address)) return callback();
        this.refused += 1;
        const error = Object.assign(new Error('Try again later'), { responseCode: 451 });
        callback(error);
      },
      onData: (stream, session, callback) => {
        simpleParser(stream)
          .then((mail) => {
            this.messages.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              mail,
            });
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
  }

  static async start(): Promise<SmtpReceiver> {
    const receiver = new SmtpReceiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  /** `smtp://user:password@127.0.0.1:<port>`, for SMTP_URL. */
  get url(): string {
    const { port } = this.server.server.address() as AddressInfo;
    return `smtp://bindery:secret@127.0.0.1:${port}`;
  }

  /** The messages to `address`. */
  to(address: string): ReceivedMail[] {
    return this.messages.filter((message) => message.to.includes(address));
  }

  /** Waits until `condition` holds of the messages, or throws after `timeoutMs`. */
  async waitFor(condition: (messages: ReceivedMail[]) => boolean, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    while (!condition(this.messages)) {
      if (Date.now() > deadline) {
        throw new Error(
          `The SMTP server did not get what was expected in ${timeoutMs} ms; it got: ` +
            JSON.stringify(this.messages.map((message) => message.mail.subject)),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
