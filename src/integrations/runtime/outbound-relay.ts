import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request } from 'undici';
import { AppConfig } from '../../platform/config/app-config';
import { OutboundHttp, OutboundHttpError } from '../../platform/outbound-http';

/** The largest request body an integration may send out. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

/**
 * Where the requests of integrations' scripts go: a loopback HTTP proxy each workerd sandbox
 * is configured with as its only way out. A request to Bindery's own API (the environment's
 * `apiEndpoint`) goes there; any other goes through OutboundHttp, one hop at a time (workerd
 * follows redirects through here), so a script cannot reach a loopback, private or link-local
 * address unless OUTBOUND_ALLOW_PRIVATE says so.
 */
@Injectable()
export class OutboundRelay implements OnModuleDestroy {
  private readonly logger = new Logger(OutboundRelay.name);
  private listening: Promise<{ server: Server; address: string }> | null = null;
  private readonly apiOrigin: string;

  constructor(
    private readonly outbound: OutboundHttp,
    private readonly config: AppConfig,
  ) {
    this.apiOrigin = new URL(config.publicUrl).origin;
  }

  /** `host:port` of the relay, started on first use. */
  async address(): Promise<string> {
    this.listening ??= this.listen();
    return (await this.listening).address;
  }

  async onModuleDestroy(): Promise<void> {
    const listening = this.listening;
    this.listening = null;
    if (!listening) return;
    const { server } = await listening;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private listen(): Promise<{ server: Server; address: string }> {
    // workerd speaks to a proxy: absolute URLs on the request line, and no Host header.
    const server = createServer({ requireHostHeader: false }, (req, res) => {
      this.relay(req, res).catch((error: unknown) => {
        this.logger.warn(`relay failed: ${String(error)}`);
        if (!res.headersSent) res.writeHead(502).end();
        else res.destroy();
      });
    });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        resolve({ server, address: `127.0.0.1:${port}` });
      });
    });
  }

  private async relay(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      return answer(res, 400, 'The integration requested a URL that is not absolute.');
    }
    const body = await readBody(req);
    if (body === null) return answer(res, 413, 'The request body is over 8 MB.');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) {
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
    }
    const method = req.method ?? 'GET';
    const payload = body.length > 0 ? body : undefined;
    if (url.origin === this.apiOrigin) {
      // Bindery's own API, wherever it listens (its address may be private): trusted.
      const response = await request(url, {
        method: method as 'GET',
        headers,
        body: payload,
        maxRedirections: 0,
      });
      const bytes = Buffer.from(await response.body.arrayBuffer());
      return reply(res, response.statusCode, response.headers, bytes);
    }
    try {
      const response = await this.outbound.relay(url.href, {
        method,
        headers,
        body: payload,
        timeoutMs: this.config.INTEGRATION_TIMEOUT_MS,
      });
      return reply(res, response.status, response.headers, response.body);
    } catch (error) {
      if (!(error instanceof OutboundHttpError)) throw error;
      const status = error.code === 'address_not_allowed' ? 403 : 502;
      return answer(res, status, error.message);
    }
  }
}

function answer(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(message);
}

function reply(
  res: ServerResponse,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: Buffer,
): void {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) {
      kept[name] = value;
    }
  }
  res.writeHead(status, { ...kept, 'content-length': String(body.length) }).end(body);
}

async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
