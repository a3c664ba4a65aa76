import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** The compiled entry points (`npm run build`). */
export const MAIN = join(__dirname, '..', '..', 'dist', 'src', 'main.js');
export const WORKER = join(__dirname, '..', '..', 'dist', 'src', 'worker.js');

const READY = {
  api: 'Bindery is ready on',
  worker: 'Bindery worker is processing jobs.',
};

/** Fails with what to do when `npm run build` has not been run. */
export function assertBuilt(): void {
  for (const file of [MAIN, WORKER]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first.`);
  }
}

/** A port free on loopback now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A Bindery process started from `dist/`: an API process (`main.js`) or a worker. */
export interface BinderyProcess {
  name: string;
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` of an API process. */
  origin?: string;
  /**
   * Resolves once the process says it is ready; rejects with its output when it exits first,
   * or is not ready in time (it is killed then).
   */
  ready: Promise<void>;
  /** Everything it wrote on stdout and stderr so far. */
  output(): string;
  /** Its exit code (null when a signal ended it), once it has exited. */
  exited: Promise<number | null>;
  running(): boolean;
  /** Sends SIGTERM and waits for the exit; SIGKILL after `withinMs`. Answers the exit code. */
  stop(withinMs?: number): Promise<number | null>;
  /** SIGKILL, when still running (cleanup). */
  kill(): void;
}

/**
 * Starts `node dist/src/main.js` (kind `api`, on 127.0.0.1:`port`) or `node dist/src/worker.js`
 * with exactly the environment given (and PATH); see `ready`. Kill what it answers in afterAll,
 * ready or not.
 */
export function spawnBindery(
  kind: 'api' | 'worker',
  name: string,
  env: Record<string, string>,
  options: { port?: number; readyWithinMs?: number; execArgv?: string[] } = {},
): BinderyProcess {
  const { port, readyWithinMs = 90_000, execArgv = [] } = options;
  if (kind === 'api' && port === undefined) throw new Error('An API process needs a port');
  const child = spawn(process.execPath, [...execArgv, kind === 'api' ? MAIN : WORKER], {
    env: {
      PATH: process.env.PATH ?? '',
      ...env,
      ...(kind === 'api' ? { PORT: String(port), HOST: '127.0.0.1' } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const running = () => child.exitCode === null && child.signalCode === null;
  const kill = () => {
    if (running()) child.kill('SIGKILL');
  };
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      kill();
      reject(new Error(`${name} not ready within ${readyWithinMs} ms:\n${output}`));
    }, readyWithinMs);
    const check = () => {
      if (!output.includes(READY[kind])) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      resolve();
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${String(code)}) before it was ready:\n${output}`));
    });
  });
  // Awaited by the caller; a rejection seen only there must not count as unhandled.
  ready.catch(() => undefined);
  return {
    name,
    child,
    origin: kind === 'api' ? `http://127.0.0.1:${port}` : undefined,
    ready,
    output: () => output,
    exited,
    running,
    stop: async (withinMs = 30_000) => {
      if (running()) child.kill('SIGTERM');
      const timer = setTimeout(kill, withinMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
    kill,
  };
}

/** A JSON object of unknown shape. */
export type JsonObject = Record<string, unknown>;

/** An answer of an API process. */
export interface Reply<T = JsonObject> {
  status: number;
  headers: Headers;
  /** The body parsed as JSON when it is JSON (as `T`: not checked), else undefined. */
  body: T;
  bytes: Buffer;
}

/**
 * HTTP calls to one API process with a bearer token (or none), over fetch. A request that gets
 * no answer (refused, reset, closed) rejects, as fetch does.
 */
export class ProcessClient {
  constructor(
    readonly origin: string,
    readonly token?: string,
  ) {}

  as(token: string): ProcessClient {
    return new ProcessClient(this.origin, token);
  }

  get<T = JsonObject>(path: string): Promise<Reply<T>> {
    return this.request<T>('GET', path);
  }
  post<T = JsonObject>(path: string, body?: unknown): Promise<Reply<T>> {
    return this.request<T>('POST', path, body);
  }
  put<T = JsonObject>(path: string, body?: unknown): Promise<Reply<T>> {
    return this.request<T>('PUT', path, body);
  }
  patch<T = JsonObject>(path: string, body?: unknown): Promise<Reply<T>> {
    return this.request<T>('PATCH', path, body);
  }
  delete(path: string): Promise<Reply> {
    return this.request('DELETE', path);
  }

  async request<T = JsonObject>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply<T>> {
    const response = await fetch(`${this.origin}${path}`, {
      method,
      headers: {
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    let parsed: unknown;
    if ((response.headers.get('content-type') ?? '').includes('json') && bytes.length > 0) {
      parsed = JSON.parse(bytes.toString('utf8'));
    }
    return { status: response.status, headers: response.headers, body: parsed as T, bytes };
  }
}

/** A reply with this status, or an error naming the request and what came back. */
export async function expectStatus<T>(
  reply: Promise<Reply<T>>,
  status: number,
  what = 'request',
): Promise<Reply<T>> {
  const answer = await reply;
  if (answer.status !== status) {
    throw new Error(
      `${what}: expected ${status}, got ${answer.status} ${answer.bytes.toString('utf8').slice(0, 500)}`,
    );
  }
  return answer;
}
