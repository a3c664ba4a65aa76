import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** A request the receiver got. */
export interface ReceivedRequest {
  /** 1 for the first request the receiver got. */
  number: number;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: Record<string, unknown>;
  /** Date.now() when the request's body had arrived. */
  at: number;
}

/** What to answer: a status (with a body), or hold the request open for `holdMs` first. */
export type Answer = { status: number; body?: string; holdMs?: number };

/**
 * A webhook endpoint on 127.0.0.1 (a random port) that keeps every request and answers as
 * `answer` says (200 by default). `verify` checks a request's signature with standardwebhooks.
 */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  answer: (request: ReceivedRequest) => Answer = () => ({ status: 200 });
  private server?: Server;
  private readonly held = new Set<NodeJS.Timeout>();

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await receiver.listen();
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  private listen(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(body) as Record<string, unknown>;
        } catch {
          // Kept as text; the test says what it expects.
        }
        const request: ReceivedRequest = {
          number: this.requests.length + 1,
          path: req.url ?? '/',
          headers: req.headers,
          body,
          json,
          at: Date.now(),
        };
        this.requests.push(request);
        const answer = this.answer(request);
        const send = () => {
          if (res.destroyed) return;
          res.writeHead(answer.status, { 'content-type': 'text/plain' });
          res.end(answer.body ?? 'ok');
        };
        if (!answer.holdMs) return send();
        const timer = setTimeout(() => {
          this.held.delete(timer);
          send();
        }, answer.holdMs);
        this.held.add(timer);
      });
    });
    return new Promise((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  /** The requests of one event type. */
  of(type: string): ReceivedRequest[] {
    return this.requests.filter((request) => request.json.type === type);
  }

  /** Waits until `condition` holds of the requests, or fails after `timeoutMs`. */
  async waitFor(
    condition: (requests: ReceivedRequest[]) => boolean,
    timeoutMs = 10_000,
  ): Promise<ReceivedRequest[]> {
    const deadline = Date.now() + timeoutMs;
    while (!condition(this.requests)) {
      if (Date.now() > deadline) {
        throw new Error(
          `The receiver did not get what was expected in ${timeoutMs} ms; it got: ` +
            JSON.stringify(this.requests.map((request) => request.json.type)),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return this.requests;
  }

  async close(): Promise<void> {
    for (const timer of this.held) clearTimeout(timer);
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/** The body of a request if its signature verifies with `secret` (standardwebhooks), else throws. */
export function verifyRequest(secret: string, request: ReceivedRequest): unknown {
  const headers = {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  };
  return new Webhook(secret).verify(request.body, headers);
}
