import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { vector } from '@electric-sql/pglite-pgvector';
import { parentPort, workerData } from 'node:worker_threads';
import { EmbeddedServer } from './embedded-session';

/**
 * The embedded database's own thread: PGlite and the loopback server in front of it (see
 * EmbeddedDatabase). PGlite runs each statement synchronously on the thread that calls it; on
 * this thread a long statement (an import's bulk insert, an index build) holds up only the
 * database's other clients, never the API's event loop.
 */

/** What the thread starts from (EmbeddedDatabase.start). */
export interface EmbeddedWorkerData {
  dataDir?: string;
  /** A `dump()` archive to load into an empty database. */
  archive?: Uint8Array;
}

/** A request of the owning thread; answered with the same id. */
export type EmbeddedWorkerRequest =
  | { id: number; type: 'dump'; compression: 'gzip' | 'none' }
  | { id: number; type: 'dropConnections' }
  | { id: number; type: 'stop' };

export type EmbeddedWorkerMessage =
  | { type: 'ready'; address: string }
  | { type: 'failed'; message: string }
  | { type: 'reply'; id: number; value?: ArrayBuffer; error?: string };

async function serve(port: NonNullable<typeof parentPort>, data: EmbeddedWorkerData) {
  let db: PGlite;
  let server: EmbeddedServer;
  let address: string;
  try {
    db = await PGlite.create({
      dataDir: data.dataDir,
      loadDataDir: data.archive ? new Blob([data.archive]) : undefined,
      extensions: { btree_gin, fuzzystrmatch, pg_trgm, vector },
    });
    server = new EmbeddedServer(db);
    address = await server.start();
  } catch (error) {
    post(port, { type: 'failed', message: (error as Error).message ?? String(error) });
    return;
  }

  port.on('message', (request: EmbeddedWorkerRequest) => {
    void answer(request).then(
      ({ value, transfer }) => post(port, { type: 'reply', id: request.id, value }, transfer),
      (error: Error) => post(port, { type: 'reply', id: request.id, error: error.message }),
    );
  });
  post(port, { type: 'ready', address });

  async function answer(
    request: EmbeddedWorkerRequest,
  ): Promise<{ value?: ArrayBuffer; transfer?: ArrayBuffer[] }> {
    switch (request.type) {
      case 'dump': {
        const archive = await (db.dumpDataDir(request.compression) as Promise<Blob>);
        const value = await archive.arrayBuffer();
        return { value, transfer: [value] };
      }
      case 'dropConnections':
        await server.dropConnections();
        return {};
      case 'stop':
        await server.stop();
        await db.close();
        return {};
    }
  }
}

function post(
  port: NonNullable<typeof parentPort>,
  message: EmbeddedWorkerMessage,
  transfer: ArrayBuffer[] = [],
): void {
  port.postMessage(message, transfer);
}

if (parentPort) void serve(parentPort, workerData as EmbeddedWorkerData);
