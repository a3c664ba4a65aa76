import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketHandler, type PGLiteSocketHandlerOptions } from '@electric-sql/pglite-socket';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * Extended-protocol messages after which the backend expects more of the same batch (Parse,
 * Bind, Describe, Execute, Close, Flush). Any other message (Sync, Query, Terminate, the startup
 * message) ends what a connection has to say at once.
 */
const MID_BATCH = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((type) => type.charCodeAt(0)));

interface Pending {
  connection: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
}

/**
 * Hands PGlite's single backend session to one socket connection at a time.
 *
 * A connection keeps the session from its first message until it has nothing in flight: up to
 * the Sync that closes an extended-protocol batch (Parse … Sync), and to the end of any
 * transaction it opened. Meanwhile the other connections' messages wait in arrival order.
 * pglite-socket's own queue (0.2.17) hands the session over between the messages of a batch
 * (electric-sql/pglite#1046): batches of different connections interleave, and an error in one
 * makes the backend skip the other's messages until a Sync, which hangs that connection.
 *
 * What a single session cannot do stays impossible: a transaction must not wait for a query on
 * another connection, which would only run after the transaction ends.
 */
export class EmbeddedSession {
  private readonly waiting: Pending[] = [];
  private holder: number | null = null;
  private midBatch = false;
  private running = false;

  constructor(private readonly db: PGlite) {}

  /** Queues a message of `connection`; resolves with the bytes answered once it has run. */
  enqueue(
    connection: number,
    message: Uint8Array,
    onData: (data: Uint8Array) => void,
  ): Promise<number> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ connection, message, onData, resolve, reject });
      void this.run();
    });
  }

  getQueueLength(): number {
    return this.waiting.length;
  }

  /** Drops what a closing connection still had queued. */
  clearQueueForHandler(connection: number): void {
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      if (this.waiting[i].connection !== connection) continue;
      const [dropped] = this.waiting.splice(i, 1);
      dropped.reject(new Error('Connection closed'));
    }
  }

  /** Frees the session from a connection that closed while holding it. */
  async clearTransactionIfNeeded(connection: number): Promise<void> {
    if (this.holder !== connection) return;
    if (this.midBatch) await this.exclusive(syncMessage(), () => undefined);
    if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    this.release();
    void this.run();
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let next = this.next(); next; next = this.next()) {
        this.holder = next.connection;
        this.midBatch = MID_BATCH.has(next.message[0]);
        try {
          next.resolve(await this.exclusive(next.message, next.onData));
        } catch (error) {
          next.reject(error);
        }
        if (!this.midBatch && !this.db.isInTransaction()) this.release();
      }
    } finally {
      this.running = false;
    }
  }

  /** The holder's next message, or anyone's when the session is free; none to wait. */
  private next(): Pending | undefined {
    if (this.holder === null) return this.waiting.shift();
    const index = this.waiting.findIndex((pending) => pending.connection === this.holder);
    return index === -1 ? undefined : this.waiting.splice(index, 1)[0];
  }

  private release(): void {
    this.holder = null;
    this.midBatch = false;
  }

  private async exclusive(message: Uint8Array, onData: (data: Uint8Array) => void) {
    let bytes = 0;
    await this.db.runExclusive(() =>
      this.db.execProtocolRawStream(message, {
        onRawData: (data) => {
          bytes += data.length;
          onData(data);
        },
      }),
    );
    return bytes;
  }
}

function syncMessage(): Uint8Array {
  return Uint8Array.of('S'.charCodeAt(0), 0, 0, 0, 4);
}

/**
 * A loopback PostgreSQL server in front of PGlite: pglite-socket's connection handlers (wire
 * framing, startup) with the session scheduling above.
 */
export class EmbeddedServer {
  private readonly connections = new Set<PGLiteSocketHandler>();
  private readonly session: EmbeddedSession;
  private server?: Server;

  constructor(db: PGlite) {
    this.session = new EmbeddedSession(db);
  }

  /** Listens on a free loopback port; answers `host:port`. */
  async start(): Promise<string> {
    const server = createServer((socket) => void this.accept(socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    return `127.0.0.1:${port}`;
  }

  /**
   * Ends every client connection, as a database server does when it restarts or an
   * administrator terminates its sessions; the server goes on accepting new ones. What a
   * connection had in flight is dropped and its transaction rolled back.
   */
  async dropConnections(): Promise<void> {
    const open = [...this.connections];
    this.connections.clear();
    // All at once, as a server's sessions end: each closes its socket as soon as it has given
    // back the session (only the one holding it waits).
    await Promise.all(open.map((connection) => connection.detach(true)));
  }

  async stop(): Promise<void> {
    for (const connection of this.connections) await connection.detach(true);
    this.connections.clear();
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async accept(socket: Socket): Promise<void> {
    const connection = new PGLiteSocketHandler({
      // The handler needs only the queue's public methods, which EmbeddedSession provides.
      queryQueue: this.session as unknown as PGLiteSocketHandlerOptions['queryQueue'],
      closeOnDetach: true,
    });
    this.connections.add(connection);
    const forget = () => this.connections.delete(connection);
    connection.addEventListener('close', forget);
    connection.addEventListener('error', forget);
    try {
      await connection.attach(socket);
    } catch {
      forget();
      socket.destroy();
    }
  }
}
