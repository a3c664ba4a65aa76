import { PGlite } from '@electric-sql/pglite';
// Contrib extensions that migrations create (search: trigram similarity, edit distance, the
// space id in a trigram index). Their types resolve through tsconfig `paths`, as the package
// declares them in `exports` only.
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { constants, cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { EmbeddedServer } from './embedded-session';

export interface EmbeddedDatabaseOptions {
  /** Folder of the database files; undefined keeps everything in memory. */
  dataDir?: string;
  /**
   * What an empty database starts from: a `dump()` archive, or (on disk only) a folder of
   * database files to copy, which is about twice as fast to start from as an archive.
   */
  template?: Blob | { folder: string };
}

/**
 * PostgreSQL compiled to WebAssembly (PGlite), running in this process and served on a
 * loopback port so that the ordinary `pg` driver, TypeORM and pg-boss use it unchanged.
 * PGlite has one backend session: the server gives it to one connection at a time, for a whole
 * extended-protocol batch or transaction (see EmbeddedSession), so concurrent transactions
 * from different pool connections are serialized.
 */
export class EmbeddedDatabase {
  private constructor(
    private readonly db: PGlite,
    private readonly server: EmbeddedServer,
    readonly url: string,
  ) {}

  static async start(options: EmbeddedDatabaseOptions = {}): Promise<EmbeddedDatabase> {
    const { dataDir, template } = options;
    const fresh = !dataDir || isEmptyFolder(dataDir);
    if (dataDir) mkdirSync(dataDir, { recursive: true });
    let archive: Blob | undefined;
    if (fresh && template instanceof Blob) archive = template;
    else if (fresh && template && !(template instanceof Blob) && dataDir) {
      // Copy-on-write clones where the file system offers them (btrfs, XFS, APFS).
      cpSync(template.folder, dataDir, { recursive: true, mode: constants.COPYFILE_FICLONE });
    }
    const db = await PGlite.create({
      dataDir,
      loadDataDir: archive,
      extensions: { btree_gin, fuzzystrmatch, pg_trgm },
    });
    const server = new EmbeddedServer(db);
    const url = `postgres://postgres@${await server.start()}/postgres?sslmode=disable`;
    return new EmbeddedDatabase(db, server, url);
  }

  /** The whole database as a tar archive that `start({ template })` can begin from. */
  dump(compression: 'gzip' | 'none' = 'none'): Promise<Blob> {
    return this.db.dumpDataDir(compression) as Promise<Blob>;
  }

  /** Ends every client connection (see EmbeddedServer.dropConnections); the server stays up. */
  dropConnections(): Promise<void> {
    return this.server.dropConnections();
  }

  async stop(): Promise<void> {
    await this.server.stop();
    await this.db.close();
  }
}

export function isEmptyFolder(folder: string): boolean {
  return !existsSync(folder) || readdirSync(folder).length === 0;
}
