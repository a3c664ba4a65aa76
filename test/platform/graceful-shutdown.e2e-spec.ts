import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { TEST_ADMIN_TOKEN, TEST_SECRET_KEY } from '../helpers/app';
import { freshDatabase, TestDatabase } from '../helpers/database';

const MAIN = join(__dirname, '..', '..', 'dist', 'src', 'main.js');

/** A port free on loopback now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A raw connection: what was written is sent as is; `response` is all it received until closed. */
async function open(port: number): Promise<{ socket: Socket; response: Promise<string> }> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const response = new Promise<string>((resolve, reject) => {
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.once('close', () => resolve(received));
    socket.once('error', reject);
  });
  return { socket, response };
}

/** Resolves once a new connection to `port` is refused. */
async function refused(port: number, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    const outcome = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve('connected');
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    if (outcome === 'ECONNREFUSED') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Connections to ${port} still accepted after ${withinMs} ms`);
}

const statusOf = (response: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1]);
const bodyOf = (response: string) => response.slice(response.indexOf('\r\n\r\n') + 4);

/**
 * The real server process (`node dist/src/main.js`, from `npm run build`) at SIGTERM: it stops
 * accepting connections, answers readiness 503 to a request that arrives on a connection opened
 * before, lets the request in flight (a body still being sent) finish with 2xx, and exits 0.
 */
describe('graceful shutdown of the server process', () => {
  let database: TestDatabase | undefined;
  let server: ChildProcess | undefined;
  let output = '';

  beforeAll(async () => {
    if (!existsSync(MAIN)) {
      throw new Error(`${MAIN} is missing: run \`npm run build\` before this test.`);
    }
    if (process.env.DATABASE_URL) database = await freshDatabase();
  });

  afterAll(async () => {
    if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    await database?.drop();
  });

  async function start(port: number): Promise<ChildProcess> {
    const child = spawn(process.execPath, [MAIN], {
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        HOST: '127.0.0.1',
        ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MINUTE: '0',
        SHUTDOWN_TIMEOUT_MS: '20000',
        DATABASE_POOL_SIZE: '4',
        ...(database?.url
          ? { DATABASE_URL: database.url, SECRET_KEY: TEST_SECRET_KEY }
          : { DATA_DIR: 'memory' }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Not ready: ${output}`)), 60_000);
      const check = () => {
        if (output.includes('Bindery is ready on')) {
          clearTimeout(timer);
          child.stdout!.off('data', check);
          resolve();
        }
      };
      child.stdout!.on('data', check);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`Exited (${String(code)}) before it was ready: ${output}`));
      });
    });
    return child;
  }

  it('drains the request in flight, refuses new connections, answers readiness 503, exits 0', async () => {
    const port = await freePort();
    server = await start(port);
    const exited = new Promise<number | null>((resolve) => server!.once('exit', resolve));

    const ready = await open(port);
    ready.socket.write('GET /health/ready HTTP/1.1\r\nHost: bindery\r\nConnection: close\r\n\r\n');
    expect(statusOf(await ready.response)).toBe(200);

    // A request in flight: its headers sent, half of its body.
    const body = JSON.stringify({ email: 'draining@example.com', displayName: 'Draining' });
    const inFlight = await open(port);
    inFlight.socket.write(
      [
        'POST /v1/admin/users HTTP/1.1',
        'Host: bindery',
        `Authorization: Bearer ${TEST_ADMIN_TOKEN}`,
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        '',
        body.slice(0, 10),
      ].join('\r\n'),
    );
    // A connection opened before the signal, its request not yet complete.
    const late = await open(port);
    late.socket.write('GET /health/ready HTTP/1.1\r\nHost: bindery\r\n');
    await new Promise((resolve) => setTimeout(resolve, 500));

    server.kill('SIGTERM');
    await refused(port, 5_000);

    late.socket.write('\r\n');
    const lateResponse = await late.response;
    expect(statusOf(lateResponse)).toBe(503);
    expect(lateResponse).toMatch(/\r\nConnection: close\r\n/i);
    expect(JSON.parse(bodyOf(lateResponse))).toEqual(
      expect.objectContaining({
        status: 'error',
        error: { lifecycle: { status: 'down', state: 'stopping' } },
      }),
    );
    // Still draining: the process waits for the request in flight.
    expect(server.exitCode).toBeNull();

    inFlight.socket.write(body.slice(10));
    const response = await inFlight.response;
    expect(statusOf(response)).toBe(201);
    expect(JSON.parse(bodyOf(response)).user.email).toBe('draining@example.com');

    expect(await exited).toBe(0);
  }, 90_000);
});
