import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { EVENT_HEADER } from './trace-collector';

/** What one sandbox may use: the time of one call, the memory of its process. */
export interface SandboxLimits {
  /** Wall time of one call; past it the sandbox is stopped (a script that loops). */
  timeoutMs: number;
  /** Resident memory of the workerd process; past it the sandbox is stopped. */
  memoryMb: number;
}

export interface SandboxResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Why a sandbox stopped a call: its limits, or its process ending. */
export class SandboxStopped extends Error {
  constructor(
    readonly reason: 'timeout' | 'memory' | 'exited',
    message: string,
  ) {
    super(message);
    this.name = 'SandboxStopped';
  }
}

const COMPATIBILITY_DATE = '2025-05-25';
/** How often the memory of a sandbox is read while it answers. */
const MEMORY_POLL_MS = 100;
const START_TIMEOUT_MS = 15_000;
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/**
 * One integration's script running in its own workerd process (Cloudflare's open-source
 * Workers runtime, where GitBook runs integrations): an ES module whose default export has
 * `fetch`, served on a loopback port. The worker has no file system and no network of its own:
 * every request it makes goes, as to an HTTP proxy, to `outbound` (Bindery's relay, which
 * applies the outbound address rules). workerd enforces no CPU or memory limits of its own, so
 * the sandbox does: a call that runs past its time, or a process that grows past its memory,
 * stops the whole process (the next call starts a new one).
 */
export class WorkerdSandbox {
  private stopped: SandboxStopped | null = null;
  private readonly exited: Promise<void>;

  private constructor(
    private readonly process: ChildProcess,
    private readonly port: number,
    private readonly directory: string,
    private readonly limits: SandboxLimits,
  ) {
    this.exited = new Promise((resolve) => process.once('exit', () => resolve()));
    void this.exited.then(() => {
      this.stopped ??= new SandboxStopped('exited', 'The integration runtime exited.');
      void rm(directory, { recursive: true, force: true });
    });
  }

  static async start(options: {
    workerdPath: string;
    script: string;
    /** The relay the worker's requests go to, as `host:port`. */
    outbound: string;
    /** Where the tail worker posts what the script logged (`host:port`), under its key. */
    logs: { address: string; key: string };
    limits: SandboxLimits;
  }): Promise<WorkerdSandbox> {
    const directory = await mkdtemp(join(tmpdir(), 'bindery-integration-'));
    const port = await freePort();
    await writeFile(join(directory, 'integration.mjs'), options.script);
    await writeFile(join(directory, 'tail.mjs'), tailModule(options.logs.key));
    await writeFile(
      join(directory, 'config.capnp'),
      configOf(port, options.outbound, options.logs.address),
    );
    const child = spawn(options.workerdPath, ['serve', 'config.capnp', '--experimental'], {
      cwd: directory,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      errors = (errors + chunk).slice(-4000);
    });
    const sandbox = new WorkerdSandbox(child, port, directory, options.limits);
    sandbox.logsKey = options.logs.key;
    try {
      await sandbox.untilListening(() => errors);
    } catch (error) {
      sandbox.close();
      throw error;
    }
    return sandbox;
  }

  /** The key its tail worker posts the script's logs under (TraceCollector). */
  logsKey = '';

  get alive(): boolean {
    return this.stopped === null;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  /** A POST of `body` to the worker's `path`, within the sandbox's limits. */
  async dispatch(
    path: string,
    body: Buffer,
    headers: Record<string, string>,
  ): Promise<SandboxResponse> {
    if (this.stopped) throw this.stopped;
    const controller = new AbortController();
    const stop = (reason: SandboxStopped) => {
      this.stopped ??= reason;
      this.process.kill('SIGKILL');
      controller.abort(reason);
    };
    const timer = setTimeout(
      () =>
        stop(
          new SandboxStopped(
            'timeout',
            `The integration ran for more than ${this.limits.timeoutMs} ms and was stopped.`,
          ),
        ),
      this.limits.timeoutMs,
    );
    const watch = setInterval(() => {
      void residentMegabytes(this.process.pid).then((megabytes) => {
        if (megabytes !== null && megabytes > this.limits.memoryMb) {
          stop(
            new SandboxStopped(
              'memory',
              `The integration used more than ${this.limits.memoryMb} MB of memory and was stopped.`,
            ),
          );
        }
      });
    }, MEMORY_POLL_MS);
    try {
      const response = await request(`http://127.0.0.1:${this.port}${path}`, {
        method: 'POST',
        headers,
        body,
        signal: controller.signal,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_RESPONSE_BYTES) throw new Error('The integration answered more than 8 MB.');
        chunks.push(chunk);
      }
      const answered: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) answered[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      return { status: response.statusCode, headers: answered, body: Buffer.concat(chunks) };
    } catch (error) {
      throw this.stopped ?? error;
    } finally {
      clearTimeout(timer);
      clearInterval(watch);
    }
  }

  close(): void {
    this.stopped ??= new SandboxStopped('exited', 'The integration runtime was closed.');
    this.process.kill('SIGKILL');
  }

  /** Resolves once the worker accepts connections; fails if workerd exits first. */
  private async untilListening(errors: () => string): Promise<void> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (this.stopped) {
        throw new Error(`The integration's script could not start: ${errors().trim()}`);
      }
      if (await accepts(this.port)) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`The integration runtime did not start within ${START_TIMEOUT_MS} ms.`);
  }
}

/**
 * The workerd configuration: the module as the only service, bound to loopback, its global
 * outbound the relay, spoken to as an HTTP proxy (the request line carries the whole URL); and
 * its tail worker, which workerd calls after each invocation with what the script logged, and
 * whose only way out is the trace collector.
 */
function configOf(port: number, outbound: string, logs: string): string {
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "integration", worker = .integration),
    (name = "tail", worker = .tail),
    (name = "outbound", external = (address = "${outbound}", http = (style = proxy))),
    (name = "logs", external = (address = "${logs}", http = ())),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "integration")],
);

const integration :Workerd.Worker = (
  modules = [(name = "integration.mjs", esModule = embed "integration.mjs")],
  compatibilityDate = "${COMPATIBILITY_DATE}",
  compatibilityFlags = ["nodejs_compat"],
  globalOutbound = "outbound",
  tails = ["tail"],
);

const tail :Workerd.Worker = (
  modules = [(name = "tail.mjs", esModule = embed "tail.mjs")],
  compatibilityDate = "${COMPATIBILITY_DATE}",
  globalOutbound = "logs",
);
`;
}

/**
 * The tail worker: forwards, for each invocation, the event it was (the header the dispatcher
 * set), its `console` lines and its uncaught exceptions, under the sandbox's key.
 */
function tailModule(key: string): string {
  return `export default {
  async tail(items) {
    const reports = items.map((item) => ({
      event: item.event?.request?.headers?.['${EVENT_HEADER}'] ?? null,
      logs: item.logs,
      exceptions: item.exceptions,
    }));
    await fetch('http://logs/${key}', { method: 'POST', body: JSON.stringify(reports) });
  },
};
`;
}

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

async function accepts(port: number): Promise<boolean> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The resident memory of a process (Linux's /proc), or null where it cannot be read. */
async function residentMegabytes(pid: number | undefined): Promise<number | null> {
  if (pid === undefined) return null;
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}
