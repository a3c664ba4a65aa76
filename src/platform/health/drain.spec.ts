import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { drainHttpServer } from './drain';

/** A server whose responses wait for `release()`. */
async function slowServer() {
  const waiting: (() => void)[] = [];
  const server = createServer((_request, response) => {
    waiting.push(() => response.end('done'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { server, port, waiting, release: () => waiting.splice(0).forEach((end) => end()) };
}

function get(port: number): Promise<{ status: number; body: string; connection?: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ port, host: '127.0.0.1', path: '/' }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () =>
        resolve({ status: response.statusCode!, body, connection: response.headers.connection }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('drainHttpServer', () => {
  let server: Server | undefined;
  afterEach(() => {
    server?.closeAllConnections();
    server?.close();
  });

  it('refuses new connections and lets the requests in flight finish', async () => {
    const slow = await slowServer();
    server = slow.server;
    const inFlight = get(slow.port);
    await until(() => slow.waiting.length === 1);
    const drained = drainHttpServer(slow.server, 5000);
    await expect(get(slow.port)).rejects.toThrow(/ECONNREFUSED/);
    slow.release();
    await expect(inFlight).resolves.toEqual(expect.objectContaining({ status: 200, body: 'done' }));
    await expect(drained).resolves.toBe(true);
    expect(slow.server.listening).toBe(false);
  });

  it('cuts the connections still open after the timeout', async () => {
    const slow = await slowServer();
    server = slow.server;
    const inFlight = get(slow.port);
    await until(() => slow.waiting.length === 1);
    const started = Date.now();
    await expect(drainHttpServer(slow.server, 100)).resolves.toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
    await expect(inFlight).rejects.toThrow(/socket hang up|ECONNRESET/);
  });

  it('answers at once for a server that is not listening', async () => {
    await expect(drainHttpServer(createServer(), 1000)).resolves.toBe(true);
  });
});
