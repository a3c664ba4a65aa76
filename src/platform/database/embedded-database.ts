import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { constants, cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';

export interface EmbeddedDatabaseOptions {
  /** Folder of the database files; undefined keeps everything in memory. */
  dataDir?: string;
  /**
   * What an empty database starts from: a `dump()` archive, or (on disk only) a folder of
   * database files to copy, which is about twice as fast to start from as an archive.
   */
  template?: Blob | { folder: string };
  /** Connections the socket server accepts at once (the `pg` pool size plus the job queue's). */
  maxConnections: number;
}

/**
 * PostgreSQL compiled to WebAssembly (PGlite), running in this process and served on a
 * loopback port so that the ordinary `pg` driver, TypeORM and pg-boss use it unchanged.
 * The socket server runs one query at a time and keeps a transaction's queries together,
 * so concurrent transactions from different pool connections are serialized.
 */
export class EmbeddedDatabase {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    readonly url: string,
  ) {}

  static async start(options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
    const { dataDir, template } = options;
    const fresh = !dataDir || isEmptyFolder(dataDir);
    if (dataDir) mkdirSync(dataDir, { recursive: true });
    let archive: Blob | undefined;
    if (fresh && template instanceof Blob) archive = template;
    else if (fresh && template && !(template instanceof Blob) && dataDir) {
      // Copy-on-write clones where the file system offers them (btrfs, XFS, APFS).
      cpSync(template.folder, dataDir, { recursive: true, mode: constants.COPYFILE_FICLONE });
    }
    const db = await PGlite.create({ dataDir, loadDataDir: archive });
    const server = new PGLiteSocketServer({
      db,
      host: '127.0.0.1',
      port: 0,
      maxConnections: options.maxConnections,
    });
    await server.start();
    const url = `postgres://postgres@${server.getServerConn()}/postgres?sslmode=disable`;
    return new EmbeddedDatabase(db, server, url);
  }

  /** The whole database as a tar archive that `start({ template })` can begin from. */
  dump(compression: 'gzip' | 'none' = 'none'): Promise<Blob> {
    return this.db.dumpDataDir(compression) as Promise<Blob>;
  }

  async stop(): Promise<void> {
    await this.server.stop();
    await this.db.close();
  }
}

export function isEmptyFolder(folder: string): boolean {
  return !existsSync(folder) || readdirSync(folder).length === 0;
}
