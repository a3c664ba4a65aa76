import dns, { type LookupAddress } from 'node:dns';
import http, {
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import net, { type AddressInfo, type LookupFunction, type NetConnectOpts } from 'node:net';
import { Readable } from 'node:stream';
import tls from 'node:tls';
import { OutboundHttp, OutboundHttpError, type OutboundHttpOptions } from './outbound-http.service';

interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface TestServer {
  origin: string;
  port: number;
  requests: RecordedRequest[];
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const servers: http.Server[] = [];
const clients: OutboundHttp[] = [];

afterEach(async () => {
  jest.restoreAllMocks();
  await Promise.all(clients.splice(0).map((client) => client.onModuleDestroy()));
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(resolve);
        }),
    ),
  );
});

/** A server on 127.0.0.1 that records each request (with its body) before handling it. */
async function startServer(handler: Handler): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      requests.push({ method: req.method!, path: req.url!, headers: req.headers, body });
      handler(req, res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, port, requests };
}

function client(options: Partial<OutboundHttpOptions> = {}): OutboundHttp {
  const instance = new OutboundHttp({
    timeoutMs: 2000,
    maxBytes: 1024 * 1024,
    allowPrivate: true,
    ...options,
  });
  clients.push(instance);
  return instance;
}

async function failure(promise: Promise<unknown>): Promise<OutboundHttpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof OutboundHttpError)) {
    throw new Error(`expected an OutboundHttpError, got ${String(error)}`);
  }
  return error;
}

/** Fails the test, rather than sending anything, if a socket or DNS query is attempted. */
function forbidNetwork() {
  const refuse = () => {
    throw new Error('test attempted a network connection');
  };
  return {
    connect: jest.spyOn(net, 'connect').mockImplementation(refuse),
    tlsConnect: jest.spyOn(tls, 'connect').mockImplementation(refuse),
    lookup: jest.spyOn(dns, 'lookup').mockImplementation(refuse),
  };
}

/**
 * Simulates the public internet: `answers` are what DNS says for made-up host names, and every
 * socket is secretly connected to `server` on loopback (after the client's own address check has
 * seen the public answer), so no traffic ever leaves the machine.
 */
function fakeInternet(server: TestServer, answers: Record<string, string[]>): void {
  const realLookup = dns.lookup;
  jest.spyOn(dns, 'lookup').mockImplementation(((
    host: string,
    options: dns.LookupOptions,
    callback: (error: Error | null, addresses: LookupAddress[]) => void,
  ) => {
    const addresses = answers[host];
    if (!addresses) return realLookup(host, { ...options, all: true }, callback);
    callback(
      null,
      addresses.map((address) => ({ address, family: net.isIP(address) })),
    );
  }) as unknown as typeof dns.lookup);

  const realConnect = net.connect;
  jest.spyOn(net, 'connect').mockImplementation(((options: NetConnectOpts) => {
    const { host, lookup } = options as net.TcpNetConnectOpts;
    if (!host || net.isIP(host) !== 0 || !lookup) {
      throw new Error(`fakeInternet only reroutes host names, got ${String(host)}`);
    }
    const toLoopback: LookupFunction = (hostname, lookupOptions, callback) =>
      lookup(hostname, lookupOptions, (error, address, family) => {
        if (error) return callback(error, address, family);
        if (Array.isArray(address)) return callback(null, [{ address: '127.0.0.1', family: 4 }]);
        return callback(null, '127.0.0.1', 4);
      });
    return realConnect({ ...options, port: server.port, lookup: toLoopback });
  }) as typeof net.connect);
}

describe('OutboundHttp', () => {
  describe('successful requests', () => {
    it('returns status, headers, body and final URL', async () => {
      const server = await startServer((_req, res) => {
        res.setHeader('content-type', 'application/yaml');
        res.setHeader('set-cookie', ['a=1', 'b=2']);
        res.end('openapi: 3.1.0');
      });

      const response = await client().fetch(`${server.origin}/spec.yaml`);

      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/yaml');
      expect(response.headers['set-cookie']).toBe('a=1, b=2');
      expect(response.body.toString()).toBe('openapi: 3.1.0');
      expect(response.url).toBe(`${server.origin}/spec.yaml`);
    });

    it('returns non-2xx responses instead of throwing', async () => {
      const server = await startServer((_req, res) => {
        res.statusCode = 404;
        res.end('not here');
      });

      const response = await client().fetch(`${server.origin}/missing`);

      expect(response.status).toBe(404);
      expect(response.body.toString()).toBe('not here');
    });

    it('sends method, body and headers, with a default user agent', async () => {
      const server = await startServer((_req, res) => res.end('ok'));

      await client().fetch(`${server.origin}/hook`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Trace': 't1' },
        body: '{"a":1}',
      });

      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]).toMatchObject({
        method: 'POST',
        path: '/hook',
        body: '{"a":1}',
        headers: { 'content-type': 'application/json', 'x-trace': 't1', 'user-agent': 'Bindery' },
      });
    });

    it('uses the configured user agent unless the caller sets one', async () => {
      const server = await startServer((_req, res) => res.end());
      const http = client({ userAgent: 'Bindery/1.2 (+https://bindery.test)' });

      await http.fetch(server.origin);
      await http.fetch(server.origin, { headers: { 'User-Agent': 'custom' } });

      expect(server.requests.map((r) => r.headers['user-agent'])).toEqual([
        'Bindery/1.2 (+https://bindery.test)',
        'custom',
      ]);
    });

    it('turns user:password in the URL into basic auth and keeps it out of the URL', async () => {
      const server = await startServer((_req, res) => res.end());

      const response = await client().fetch(
        `http://x-token:s%3Acret@127.0.0.1:${server.port}/repo.git/info/refs`,
      );

      const expected = `Basic ${Buffer.from('x-token:s:cret').toString('base64')}`;
      expect(server.requests[0].headers.authorization).toBe(expected);
      expect(response.url).toBe(`${server.origin}/repo.git/info/refs`);
    });

    it('answers HEAD without a body even when content-length exceeds the limit', async () => {
      const server = await startServer((_req, res) => {
        res.setHeader('content-length', '5000');
        res.end();
      });

      const response = await client({ maxBytes: 100 }).fetch(server.origin, { method: 'HEAD' });

      expect(response.status).toBe(200);
      expect(response.headers['content-length']).toBe('5000');
      expect(response.body).toHaveLength(0);
    });
  });

  describe('size limit', () => {
    it('accepts a body of exactly maxBytes', async () => {
      const server = await startServer((_req, res) => res.end('x'.repeat(100)));

      const response = await client({ maxBytes: 100 }).fetch(server.origin);

      expect(response.body).toHaveLength(100);
    });

    it('refuses a body whose content-length announces too much, without waiting for it', async () => {
      // Headers only: if the announcement were ignored, the fetch would hang until the timeout.
      const server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-length': '100000' });
        res.flushHeaders();
      });

      const error = await failure(client({ maxBytes: 1000, timeoutMs: 5000 }).fetch(server.origin));

      expect(error.code).toBe('too_large');
      expect(error.message).toBe('The response is larger than the 1000-byte limit.');
    });

    it('aborts a streamed (chunked) body as soon as it passes the limit', async () => {
      let closed!: Promise<void>;
      const server = await startServer((_req, res) => {
        closed = new Promise((resolve) => res.on('close', resolve));
        // An endless chunked body: only aborting the transfer ends this request.
        const timer = setInterval(() => res.write(Buffer.alloc(1024, 'a')), 5);
        res.on('close', () => clearInterval(timer));
      });

      const error = await failure(client({ maxBytes: 4096, timeoutMs: 5000 }).fetch(server.origin));

      expect(error.code).toBe('too_large');
      await expect(closed).resolves.toBeUndefined();
    });

    it('with truncate, cuts a longer body at the limit and says so', async () => {
      let closed!: Promise<void>;
      const server = await startServer((_req, res) => {
        closed = new Promise((resolve) => res.on('close', resolve));
        res.writeHead(200, { 'content-length': '100000' });
        res.write(Buffer.alloc(3000, 'a'));
        res.write(Buffer.alloc(3000, 'b'));
      });

      const response = await client({ maxBytes: 4096, timeoutMs: 5000 }).fetch(server.origin, {
        truncate: true,
      });

      expect(response.truncated).toBe(true);
      expect(response.body.toString()).toBe('a'.repeat(3000) + 'b'.repeat(1096));
      await expect(closed).resolves.toBeUndefined();
    });

    it('with truncate, leaves a body within the limit whole', async () => {
      const server = await startServer((_req, res) => res.end('x'.repeat(100)));

      const response = await client({ maxBytes: 100 }).fetch(server.origin, { truncate: true });

      expect(response.body).toHaveLength(100);
      expect(response.truncated).toBeUndefined();
    });

    it('honours a per-call maxBytes', async () => {
      const server = await startServer((_req, res) => res.end('x'.repeat(50)));

      const error = await failure(
        client({ maxBytes: 1000 }).fetch(server.origin, { maxBytes: 10 }),
      );

      expect(error.code).toBe('too_large');
    });
  });

  describe('timeout', () => {
    it('gives up on a server that never answers', async () => {
      const server = await startServer(() => undefined);
      const started = Date.now();

      const error = await failure(client({ timeoutMs: 150 }).fetch(server.origin));

      expect(error.code).toBe('timeout');
      expect(error.message).toBe(`127.0.0.1:${server.port} did not respond within 150 ms.`);
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it('counts the time spent receiving the body', async () => {
      const server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('partial');
      });

      const error = await failure(client({ timeoutMs: 150 }).fetch(server.origin));

      expect(error.code).toBe('timeout');
    });

    it('honours a per-call timeout', async () => {
      const server = await startServer(() => undefined);

      const error = await failure(
        client({ timeoutMs: 60_000 }).fetch(server.origin, { timeoutMs: 100 }),
      );

      expect(error.code).toBe('timeout');
    });
  });

  describe('redirects', () => {
    /** `/hop/N` redirects to `/hop/N-1`; `/hop/0` answers. */
    async function redirectChain(): Promise<TestServer> {
      return startServer((req, res) => {
        const left = Number(req.url!.split('/')[2]);
        if (left === 0) return res.end('arrived');
        res.writeHead(302, { location: `/hop/${left - 1}` });
        res.end();
      });
    }

    it('follows a redirect chain and reports the final URL', async () => {
      const server = await redirectChain();

      const response = await client().fetch(`${server.origin}/hop/5`);

      expect(response.status).toBe(200);
      expect(response.body.toString()).toBe('arrived');
      expect(response.url).toBe(`${server.origin}/hop/0`);
      expect(server.requests.map((r) => r.path)).toEqual([
        '/hop/5',
        '/hop/4',
        '/hop/3',
        '/hop/2',
        '/hop/1',
        '/hop/0',
      ]);
    });

    it('stops after maxRedirects', async () => {
      const server = await redirectChain();
      const limited = client({ maxRedirects: 2 });

      await expect(limited.fetch(`${server.origin}/hop/2`)).resolves.toMatchObject({ status: 200 });
      const error = await failure(limited.fetch(`${server.origin}/hop/3`));

      expect(error.code).toBe('too_many_redirects');
      expect(error.message).toBe('Gave up after 2 redirects.');
      expect(server.requests.map((r) => r.path).slice(3)).toEqual(['/hop/3', '/hop/2', '/hop/1']);
    });

    it('defaults to five redirects', async () => {
      const server = await redirectChain();

      const error = await failure(client().fetch(`${server.origin}/hop/6`));

      expect(error.code).toBe('too_many_redirects');
    });

    it('turns POST into GET without a body on 303, and keeps both on 307', async () => {
      const server = await startServer((req, res) => {
        if (req.url === '/see-other') res.writeHead(303, { location: '/done' });
        if (req.url === '/temporary') res.writeHead(307, { location: '/done' });
        res.end();
      });
      const post = {
        method: 'POST' as const,
        body: 'payload',
        headers: { 'content-type': 'text/plain' },
      };

      await client().fetch(`${server.origin}/see-other`, post);
      await client().fetch(`${server.origin}/temporary`, post);

      const [, afterSeeOther, , afterTemporary] = server.requests;
      expect(afterSeeOther).toMatchObject({ method: 'GET', path: '/done', body: '' });
      expect(afterSeeOther.headers['content-type']).toBeUndefined();
      expect(afterTemporary).toMatchObject({ method: 'POST', path: '/done', body: 'payload' });
    });

    it('drops credentials when redirected to another origin', async () => {
      const other = await startServer((_req, res) => res.end());
      const server = await startServer((req, res) => {
        const location = req.url === '/away' ? `${other.origin}/landing` : '/landing';
        if (req.url !== '/landing') res.writeHead(302, { location });
        res.end();
      });
      const headers = { authorization: 'Bearer secret', cookie: 'session=1', 'x-keep': 'yes' };

      await client().fetch(`${server.origin}/same`, { headers });
      await client().fetch(`${server.origin}/away`, { headers });

      expect(server.requests[1].headers).toMatchObject(headers);
      expect(other.requests[0].headers.authorization).toBeUndefined();
      expect(other.requests[0].headers.cookie).toBeUndefined();
      expect(other.requests[0].headers['x-keep']).toBe('yes');
    });

    it('returns a redirect status that has no Location header', async () => {
      const server = await startServer((_req, res) => {
        res.statusCode = 302;
        res.end();
      });

      await expect(client().fetch(server.origin)).resolves.toMatchObject({ status: 302 });
    });

    it('refuses a redirect to a scheme other than http(s)', async () => {
      const server = await startServer((_req, res) => {
        res.writeHead(302, { location: 'file:///etc/passwd' });
        res.end();
      });

      const error = await failure(client().fetch(server.origin));

      expect(error.code).toBe('scheme_not_allowed');
    });
  });

  describe('URL validation', () => {
    it.each(['not a url', '/relative/path', 'http://', ''])(
      'refuses %j as invalid',
      async (url) => {
        const network = forbidNetwork();

        const error = await failure(client().fetch(url));

        expect(error.code).toBe('invalid_url');
        expect(network.connect).not.toHaveBeenCalled();
      },
    );

    it.each([
      'ftp://example.com/spec.yaml',
      'file:///etc/passwd',
      'gopher://example.com/',
      'data:text/plain,hello',
    ])('refuses the scheme of %s', async (url) => {
      const network = forbidNetwork();

      const error = await failure(client().fetch(url));

      expect(error.code).toBe('scheme_not_allowed');
      expect(error.message).toMatch(/^Only http and https URLs can be fetched, not \w+\.$/);
      expect(network.connect).not.toHaveBeenCalled();
      expect(network.lookup).not.toHaveBeenCalled();
    });
  });

  describe('address policy (allowPrivate: false)', () => {
    const publicOnly = () => client({ allowPrivate: false });

    it('lets the network spies see a real connection (so the "no connection" checks mean something)', async () => {
      const server = await startServer((_req, res) => res.end('ok'));
      const connect = jest.spyOn(net, 'connect');

      await client({ allowPrivate: true }).fetch(server.origin);

      expect(connect).toHaveBeenCalledTimes(1);
    });

    it.each([
      'http://127.0.0.1:{port}/',
      'http://[::1]:{port}/',
      'http://[::ffff:127.0.0.1]:{port}/',
      'http://0.0.0.0:{port}/',
      'http://2130706433:{port}/',
      'http://0x7f.1:{port}/',
    ])('refuses loopback literal %s without connecting', async (template) => {
      const server = await startServer((_req, res) => res.end());
      const network = forbidNetwork();

      const error = await failure(publicOnly().fetch(template.replace('{port}', `${server.port}`)));

      expect(error.code).toBe('address_not_allowed');
      expect(network.connect).not.toHaveBeenCalled();
      expect(server.requests).toHaveLength(0);
    });

    it.each([
      'http://10.0.0.1/',
      'http://192.168.1.1/',
      'http://172.16.5.4/',
      'http://100.64.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'https://169.254.169.254/',
      'http://[fd00::1]/',
      'http://[fe80::1]/',
      'http://[::ffff:10.0.0.1]/',
    ])('refuses private literal %s without any DNS query or connection', async (url) => {
      const network = forbidNetwork();

      const error = await failure(publicOnly().fetch(url));

      expect(error.code).toBe('address_not_allowed');
      expect(error.message).toMatch(
        /^Refusing to connect to \S+: only public internet addresses may be fetched\.$/,
      );
      expect(network.connect).not.toHaveBeenCalled();
      expect(network.tlsConnect).not.toHaveBeenCalled();
      expect(network.lookup).not.toHaveBeenCalled();
    });

    it('refuses localhost once DNS resolves it to loopback', async () => {
      const server = await startServer((_req, res) => res.end());

      const error = await failure(publicOnly().fetch(`http://localhost:${server.port}/`));

      expect(error.code).toBe('address_not_allowed');
      expect(error.message).toMatch(/^Refusing to connect to localhost \((127\.0\.0\.1|::1)\)/);
      expect(server.requests).toHaveLength(0);
    });

    it('fetches a host whose DNS answers are public', async () => {
      const server = await startServer((_req, res) => res.end('public content'));
      fakeInternet(server, { 'docs.example.test': ['93.184.215.14'] });

      const response = await publicOnly().fetch('http://docs.example.test/openapi.json');

      expect(response.body.toString()).toBe('public content');
      expect(server.requests[0].headers.host).toBe('docs.example.test');
    });

    it.each([
      ['a private address', ['10.0.0.5']],
      ['the metadata address', ['169.254.169.254']],
      ['one private address among public ones', ['93.184.215.14', '192.168.0.10']],
      ['IPv4-mapped loopback', ['::ffff:127.0.0.1']],
    ])('refuses a host name resolving to %s (DNS rebinding)', async (_label, answers) => {
      const server = await startServer((_req, res) => res.end('internal'));
      fakeInternet(server, { 'rebind.example.test': answers });

      const error = await failure(publicOnly().fetch('http://rebind.example.test/'));

      expect(error.code).toBe('address_not_allowed');
      expect(server.requests).toHaveLength(0);
    });

    it.each([
      ['a loopback literal', (s: TestServer) => `${s.origin}/internal`],
      ['a private literal', () => 'http://10.0.0.1/internal'],
      ['the metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
      ['localhost', (s: TestServer) => `http://localhost:${s.port}/internal`],
      ['a name resolving privately', () => 'http://rebind.example.test/internal'],
    ])('refuses a redirect from a public host to %s', async (_label, target) => {
      const server = await startServer((req, res) => {
        if (req.url === '/start') res.writeHead(302, { location: target(server) });
        res.end('internal');
      });
      fakeInternet(server, {
        'docs.example.test': ['93.184.215.14'],
        'rebind.example.test': ['10.0.0.5'],
      });

      const error = await failure(publicOnly().fetch('http://docs.example.test/start'));

      expect(error.code).toBe('address_not_allowed');
      expect(server.requests.map((r) => r.path)).toEqual(['/start']);
    });
  });

  describe('network errors', () => {
    it('reports a refused connection in plain words', async () => {
      const server = await startServer(() => undefined);
      const { port } = server;
      await new Promise((resolve) => {
        servers.splice(servers.indexOf(servers[servers.length - 1]), 1)[0].close(resolve);
      });

      const error = await failure(client().fetch(`http://127.0.0.1:${port}/`));

      expect(error.code).toBe('network_error');
      expect(error.message).toBe(
        `Could not fetch from 127.0.0.1:${port}: the connection was refused.`,
      );
      expect(error.message).not.toMatch(/\n\s+at /);
    });

    it('reports a connection dropped mid-response', async () => {
      const server = await startServer((req) => req.socket.destroy());

      const error = await failure(client().fetch(server.origin));

      expect(error.code).toBe('network_error');
      expect(error.message).toMatch(/^Could not fetch from 127\.0\.0\.1:\d+: /);
    });
  });

  describe('stream', () => {
    /** The whole body of a streamed response, or the OutboundHttpError it failed with. */
    async function drain(body: NodeJS.ReadableStream): Promise<Buffer | OutboundHttpError> {
      const chunks: Buffer[] = [];
      try {
        for await (const chunk of body) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks);
      } catch (error) {
        if (error instanceof OutboundHttpError) return error;
        throw error;
      }
    }

    it('gives the body as a stream, larger than the whole-body limit allows when asked, and sends a stream body', async () => {
      const server = await startServer((_req, res) => {
        let sent = 0;
        const send = () => {
          while (sent < 50) {
            sent++;
            if (!res.write(Buffer.alloc(64 * 1024, sent))) return void res.once('drain', send);
          }
          res.end();
        };
        send();
      });
      const body = Readable.from([Buffer.from('part one, '), Buffer.from('part two')]);

      const response = await client({ maxBytes: 1024 }).stream(server.origin, {
        method: 'POST',
        body,
        maxBytes: 10 * 1024 * 1024,
      });

      expect(response.status).toBe(200);
      const received = await drain(response.body);
      expect(received).toBeInstanceOf(Buffer);
      expect((received as Buffer).length).toBe(50 * 64 * 1024);
      expect(server.requests[0].body).toBe('part one, part two');
    });

    it('fails the stream once the body passes maxBytes, and ends the transfer', async () => {
      let closed!: Promise<void>;
      const server = await startServer((_req, res) => {
        closed = new Promise((resolve) => res.on('close', resolve));
        const timer = setInterval(() => res.write(Buffer.alloc(1024, 'a')), 2);
        res.on('close', () => clearInterval(timer));
      });

      const response = await client().stream(server.origin, { maxBytes: 8192 });
      const error = await drain(response.body);

      expect(error).toBeInstanceOf(OutboundHttpError);
      expect((error as OutboundHttpError).code).toBe('too_large');
      await expect(closed).resolves.toBeUndefined();
    });

    it('times out a silence of the body, not a long transfer', async () => {
      const server = await startServer((_req, res) => {
        // 600 ms in all, never silent for 200 ms: then silent.
        let sent = 0;
        const timer = setInterval(() => {
          res.write('x');
          if (++sent === 12) clearInterval(timer);
        }, 50);
        res.on('close', () => clearInterval(timer));
      });

      const response = await client().stream(server.origin, { timeoutMs: 250 });
      const error = await drain(response.body);

      expect(error).toBeInstanceOf(OutboundHttpError);
      expect((error as OutboundHttpError).code).toBe('timeout');
    });

    it('does not follow a redirect with a stream body', async () => {
      const server = await startServer((_req, res) => {
        res.writeHead(307, { location: '/elsewhere' });
        res.end();
      });

      const error = await failure(
        client().stream(server.origin, { method: 'POST', body: Readable.from([Buffer.from('x')]) }),
      );

      expect(error.message).toMatch(/redirected a request whose body cannot be sent again/);
    });
  });

  it('rejects nonsensical options at construction', () => {
    expect(() => new OutboundHttp({ timeoutMs: 0, maxBytes: 1, allowPrivate: false })).toThrow(
      /timeoutMs/,
    );
    expect(() => new OutboundHttp({ timeoutMs: 1, maxBytes: -1, allowPrivate: false })).toThrow(
      /maxBytes/,
    );
  });
});
