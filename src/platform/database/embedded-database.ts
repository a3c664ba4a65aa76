import { constants, cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type {
  EmbeddedWorkerData,
  EmbeddedWorkerMessage,
  EmbeddedWorkerRequest,
} from './embedded-database.worker';

export interface EmbeddedDatabaseOptions {
  /** Folder of the database files; undefined keeps everything in memory. */
  dataDir?: string;
  /**
   * What an empty database starts from: a `dump()` archive, or (on disk only) a folder of
   * database files to copy, which is about twice as fast to start from as an archive.
   */
  template?: Blob | { folder: string };
}

type Request = EmbeddedWorkerRequest extends infer R
  ? R extends { id: number }
    ? Omit<R, 'id'>
    : never
  : never;

/**
 * PostgreSQL compiled to WebAssembly (PGlite), served on a loopback port so that the ordinary
 * `pg` driver, TypeORM and pg-boss use it unchanged. PGlite and its server run on a thread of
 * their own (embedded-database.worker.ts): PGlite runs each statement synchronously on its
 * thread, and on the API's thread a long statement (a Git import's bulk insert, an index
 * build) stalled every request for as long as it ran.
 * PGlite has one backend session: the server gives it to one connection at a time, for a whole
 * extended-protocol batch or transaction (see EmbeddedSession), so concurrent transactions
 * from different pool connections are serialized.
 */
export class EmbeddedDatabase {
  private readonly pending = new Map<
    number,
    { resolve: (value?: ArrayBuffer) => void; reject: (error: Error) => void }
  >();
  private nextId = 0;
  private exited: Error | undefined;
  private stopping = false;

  private constructor(
    private readonly worker: Worker,
    readonly url: string,
  ) {
    worker.on('message', (message: EmbeddedWorkerMessage) => {
      if (message.type !== 'reply') return;
      const request = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error === undefined) request?.resolve(message.value);
      else request?.reject(new Error(message.error));
    });
    worker.on('error', (error) => this.end(error));
    worker.on('exit', (code) => {
      const error = new Error(`The embedded database stopped (exit code ${code})`);
      // Clients then fail as with a database server that went away (503, /health/ready).
      if (!this.stopping) process.emitWarning(error);
      this.end(error);
    });
  }

  static async start(options: EmbeddedDatabaseOptions = {}): Promise<EmbeddedDatabase> {
    const { dataDir, template } = options;
    const fresh = !dataDir || isEmptyFolder(dataDir);
    if (dataDir) mkdirSync(dataDir, { recursive: true });
    let archive: Uint8Array | undefined;
    if (fresh && template instanceof Blob) archive = new Uint8Array(await template.arrayBuffer());
    else if (fresh && template && !(template instanceof Blob) && dataDir) {
      // Copy-on-write clones where the file system offers them (btrfs, XFS, APFS).
      cpSync(template.folder, dataDir, { recursive: true, mode: constants.COPYFILE_FICLONE });
    }
    const workerData: EmbeddedWorkerData = { dataDir, archive };
    const worker = startWorker(workerData, archive ? [archive.buffer as ArrayBuffer] : []);
    const address = await new Promise<string>((resolve, reject) => {
      const failed = (error: Error) => reject(error);
      worker.once('error', failed);
      worker.once('exit', (code) => reject(new Error(`the embedded database exited (${code})`)));
      worker.once('message', (message: EmbeddedWorkerMessage) => {
        worker.off('error', failed);
        if (message.type === 'ready') resolve(message.address);
        else if (message.type === 'failed') reject(new Error(message.message));
      });
    }).catch(async (error: Error) => {
      await worker.terminate();
      throw new Error(`The embedded database did not start: ${error.message}`);
    });
    worker.removeAllListeners('exit');
    return new EmbeddedDatabase(worker, `postgres://postgres@${address}/postgres?sslmode=disable`);
  }

  /** The whole database as a tar archive that `start({ template })` can begin from. */
  async dump(compression: 'gzip' | 'none' = 'none'): Promise<Blob> {
    return new Blob([(await this.request({ type: 'dump', compression }))!]);
  }

  /** Ends every client connection (see EmbeddedServer.dropConnections); the server stays up. */
  async dropConnections(): Promise<void> {
    await this.request({ type: 'dropConnections' });
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    this.stopping = true;
    await this.request({ type: 'stop' });
    await this.worker.terminate();
  }

  private request(request: Request): Promise<ArrayBuffer | undefined> {
    if (this.exited) return Promise.reject(this.exited);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id } as EmbeddedWorkerRequest);
    });
  }

  private end(error: Error): void {
    this.exited ??= error;
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
  }
}

/**
 * The database's thread, from the compiled worker next to this file; run from TypeScript
 * sources (the tests), the thread compiles the worker and its imports with swc as it loads them.
 */
function startWorker(workerData: EmbeddedWorkerData, transferList: ArrayBuffer[]): Worker {
  const compiled = join(__dirname, 'embedded-database.worker.js');
  if (!__filename.endsWith('.ts')) return new Worker(compiled, { workerData, transferList });
  const source = join(__dirname, 'embedded-database.worker.ts');
  const swc = require.resolve('@swc/core');
  return new Worker(
    `
    const { readFileSync } = require('node:fs');
    const { transformSync } = require(${JSON.stringify(swc)});
    require.extensions['.ts'] = (module, filename) => {
      const { code } = transformSync(readFileSync(filename, 'utf8'), {
        filename,
        swcrc: false,
        module: { type: 'commonjs' },
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      });
      module._compile(code, filename);
    };
    require(${JSON.stringify(source)});
    `,
    { eval: true, workerData, transferList },
  );
}

export function isEmptyFolder(folder: string): boolean {
  return !existsSync(folder) || readdirSync(folder).length === 0;
}
