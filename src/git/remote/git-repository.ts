import * as fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import git from 'isomorphic-git';
import type { OutboundHttp } from '../../platform/outbound-http';
import {
  hasObject,
  objectHeader,
  openObject,
  readObject,
  writeObject,
  writeObjectFrom,
} from './loose-objects';
import { unpackObjects } from './pack-unpacker';
import { removeTree } from './remove-tree';
import { Turns } from './turns';
import { writePackFile } from './pack-writer';
import { discover, fetchPack, PushRejectedError, pushPack, resolveRef } from './smart-http';

/** A blob of a commit's tree: its oid, and its bytes when they were read. */
export interface TreeBlob {
  oid: string;
  data?: Buffer;
}

export interface RemoteTarget {
  url: string;
  ref: string;
  /** Extra request headers (the Authorization of the URL's credentials). */
  headers: Record<string, string>;
}

export interface FetchedCommit {
  oid: string;
  message: string;
  /** Paths relative to the repository root. */
  files: Map<string, TreeBlob>;
}

export interface Author {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  timestamp: number;
}

/** A file's bytes as a stream of known length, read when it is written (a large file). */
export interface StreamedFile {
  size: number;
  open(): Promise<NodeJS.ReadableStream>;
}

const LOCAL_BRANCH = 'refs/heads/bindery';

/**
 * Walks a tree's entries one after the other: isomorphic-git walks every child at once by
 * default, thousands of reads in flight together, which hold the thread pool and the event
 * loop (their callbacks run back to back) that every request needs too.
 */
async function oneByOne<T, U>(
  walk: (child: T) => Promise<U>,
  children: IterableIterator<T>,
): Promise<U[]> {
  const walked: U[] = [];
  for (const child of children) walked.push(await walk(child));
  return walked;
}
const FILE_MODE = '100644';

/** Thrown when the remote has no such ref (or no commit at all). */
export class RefNotFound extends Error {}

export { GitHttpError, PushRejectedError } from './smart-http';

/**
 * A throw-away bare repository in a temporary directory: a shallow fetch of one ref, a commit
 * built from trees (no working copy), a push. Packs travel between the remote and disk as
 * streams (smart-http.ts), the fetched one is unpacked into loose objects, and large files are
 * read and written as streams: a repository of any size passes through bounded memory.
 * isomorphic-git reads and writes the commits and trees. `close()` removes the directory.
 */
export class GitWorkspace {
  private constructor(
    private readonly gitdir: string,
    private readonly http: OutboundHttp,
    private readonly maxFetchBytes: number,
  ) {}

  /** `maxFetchBytes`: the largest pack a fetch accepts. */
  static async open(http: OutboundHttp, maxFetchBytes: number): Promise<GitWorkspace> {
    const gitdir = await mkdtemp(join(tmpdir(), 'bindery-git-'));
    await git.init({ fs, gitdir, bare: true, defaultBranch: 'bindery' });
    return new GitWorkspace(gitdir, http, maxFetchBytes);
  }

  async close(): Promise<void> {
    await removeTree(this.gitdir);
  }

  /** The head commit of `target.ref` (depth 1); RefNotFound when the remote lacks it. */
  async fetchHead(target: RemoteTarget): Promise<string> {
    const advertisement = await discover(this.http, target, 'git-upload-pack');
    const name = resolveRef(advertisement, target.ref);
    if (!name) throw new RefNotFound(target.ref);
    const oid = advertisement.refs.get(name)!;
    const commit = advertisement.peeled.get(name) ?? oid;
    if (!(await hasObject(this.gitdir, commit))) {
      const pack = join(this.gitdir, 'objects', `incoming-${Date.now()}.pack`);
      try {
        await fetchPack(
          this.http,
          { headers: target.headers, maxBytes: this.maxFetchBytes },
          advertisement,
          oid,
          pack,
        );
        await unpackObjects(this.gitdir, pack);
      } finally {
        await rm(pack, { force: true });
      }
    }
    return commit;
  }

  /**
   * A fetched commit with the blobs of its tree that `wanted` selects (paths from the
   * repository's root), with their bytes when `read` says (the others are opened as streams:
   * openBlob). Folders that `wanted` rejects as folders (`isFolder` true) are not walked, so a
   * large repository costs only the part that is read.
   */
  async read(
    oid: string,
    wanted: (path: string, isFolder: boolean) => boolean = () => true,
    read: (path: string) => boolean = () => true,
  ): Promise<FetchedCommit> {
    const { commit } = await git.readCommit({ fs, gitdir: this.gitdir, oid });
    const files = new Map<string, TreeBlob>();
    const turns = new Turns();
    await git.walk({
      fs,
      gitdir: this.gitdir,
      trees: [git.TREE({ ref: oid })],
      iterate: oneByOne,
      map: async (path, [entry]) => {
        await turns.maybe();
        if (!entry || path === '.') return true;
        const type = await entry.type();
        if (type === 'tree') return wanted(path, true) ? true : null;
        if (type === 'blob' && wanted(path, false)) {
          const blob = await entry.oid();
          files.set(
            path,
            read(path)
              ? { oid: blob, data: (await readObject(this.gitdir, blob)).data }
              : { oid: blob },
          );
        }
        return true;
      },
    });
    return { oid, message: commit.message, files };
  }

  /** The size of a blob of a fetched commit, in bytes. */
  async blobSize(oid: string): Promise<number> {
    return (await objectHeader(this.gitdir, oid)).size;
  }

  /** A blob of a fetched commit as a stream, to read to its end or destroy. */
  async openBlob(oid: string): Promise<{ size: number; content: Readable }> {
    const { size, content } = await openObject(this.gitdir, oid);
    return { size, content };
  }

  /**
   * Commits on top of `parent` (or as a first commit) its tree with `deletes` removed and
   * `writes` written (paths from the repository's root; large files as streams), and pushes
   * it to `target.ref`: refused when the ref moved since `parent` was fetched, unless
   * `force`. When the tree comes out as the parent's, nothing is committed or pushed
   * (`committed` false, `oid` the parent). Returns every file of the tree with its blob.
   */
  async commitAndPush(input: {
    target: RemoteTarget;
    parent: string | null;
    writes: ReadonlyMap<string, Buffer | StreamedFile>;
    deletes: ReadonlySet<string>;
    message: string;
    author: Author;
    force: boolean;
  }): Promise<{ oid: string; committed: boolean; files: Map<string, string> }> {
    const before = input.parent
      ? await this.listTree(input.parent)
      : { files: new Map<string, { oid: string; mode: string }>(), trees: new Set<string>() };
    const entries = new Map(before.files);
    for (const path of input.deletes) entries.delete(path);
    for (const [path, data] of input.writes) {
      const oid = Buffer.isBuffer(data)
        ? await writeObject(this.gitdir, 'blob', data)
        : await writeObjectFrom(
            this.gitdir,
            'blob',
            data.size,
            (await data.open()) as AsyncIterable<Buffer>,
          );
      const mode = entries.get(path)?.mode;
      entries.set(path, { oid, mode: mode === '100755' ? mode : FILE_MODE });
    }
    const files = new Map([...entries].map(([path, entry]) => [path, entry.oid]));
    const trees: string[] = [];
    const tree = await this.writeTrees(entries, trees);
    if (input.parent) {
      const { commit } = await git.readCommit({ fs, gitdir: this.gitdir, oid: input.parent });
      if (commit.tree === tree) return { oid: input.parent, committed: false, files };
    }
    const author = { ...input.author, timezoneOffset: 0 };
    const oid = await git.commit({
      fs,
      gitdir: this.gitdir,
      message: input.message,
      author,
      committer: author,
      tree,
      parent: input.parent ? [input.parent] : [],
      ref: LOCAL_BRANCH,
    });

    const advertisement = await discover(this.http, input.target, 'git-receive-pack');
    const ref =
      resolveRef(advertisement, input.target.ref) ??
      (input.target.ref.startsWith('refs/') ? input.target.ref : `refs/heads/${input.target.ref}`);
    const current = advertisement.refs.get(ref) ?? null;
    if (!input.force && current !== null && current !== input.parent) {
      throw new PushRejectedError('The remote ref moved since it was read.', 'not-fast-forward');
    }
    // What the remote lacks: the commit, and the trees and blobs its parent does not have.
    const known = new Set([...before.trees, ...[...before.files.values()].map((f) => f.oid)]);
    const objects = [
      oid,
      ...new Set([...trees, ...files.values()].filter((object) => !known.has(object))),
    ];
    const pack = join(this.gitdir, 'objects', `outgoing-${Date.now()}.pack`);
    try {
      await writePackFile(this.gitdir, objects, pack);
      await pushPack(
        this.http,
        input.target,
        advertisement,
        { ref, old: current, next: oid },
        pack,
      );
    } finally {
      await rm(pack, { force: true });
    }
    return { oid, committed: true, files };
  }

  /** The bytes of a blob of a fetched commit. */
  async readBlob(oid: string): Promise<Buffer> {
    return (await readObject(this.gitdir, oid)).data;
  }

  /** Every file (and submodule) of a fetched commit's tree, by path, with its blob and mode. */
  async listFiles(oid: string): Promise<Map<string, { oid: string; mode: string }>> {
    return (await this.listTree(oid)).files;
  }

  /** The files of a commit's tree, and the oids of its trees. */
  private async listTree(
    oid: string,
  ): Promise<{ files: Map<string, { oid: string; mode: string }>; trees: Set<string> }> {
    const files = new Map<string, { oid: string; mode: string }>();
    const trees = new Set<string>();
    const turns = new Turns();
    await git.walk({
      fs,
      gitdir: this.gitdir,
      trees: [git.TREE({ ref: oid })],
      iterate: oneByOne,
      map: async (path, [entry]) => {
        await turns.maybe();
        if (!entry) return true;
        const type = await entry.type();
        if (type === 'tree') trees.add(await entry.oid());
        else if (type === 'blob' || type === 'commit') {
          files.set(path, { oid: await entry.oid(), mode: (await entry.mode()).toString(8) });
        }
        return true;
      },
    });
    return { files, trees };
  }

  /**
   * Writes the tree objects of `entries` (full paths), deepest first, adding their oids to
   * `written`; returns the root's oid.
   */
  private async writeTrees(
    entries: Map<string, { oid: string; mode: string }>,
    written: string[],
  ): Promise<string> {
    interface Dir {
      blobs: Map<string, { oid: string; mode: string }>;
      dirs: Map<string, Dir>;
    }
    const root: Dir = { blobs: new Map(), dirs: new Map() };
    for (const [path, entry] of entries) {
      const parts = path.split('/');
      let dir = root;
      for (const part of parts.slice(0, -1)) {
        let next = dir.dirs.get(part);
        if (!next) {
          next = { blobs: new Map(), dirs: new Map() };
          dir.dirs.set(part, next);
        }
        dir = next;
      }
      dir.blobs.set(parts[parts.length - 1], entry);
    }
    const write = async (dir: Dir): Promise<string> => {
      const tree: { mode: string; path: string; oid: string; type: 'blob' | 'tree' | 'commit' }[] =
        [];
      for (const [name, child] of dir.dirs) {
        tree.push({ mode: '040000', path: name, oid: await write(child), type: 'tree' });
      }
      for (const [name, blob] of dir.blobs) {
        tree.push({
          mode: blob.mode,
          path: name,
          oid: blob.oid,
          type: blob.mode === '160000' ? 'commit' : 'blob',
        });
      }
      const oid = await git.writeTree({ fs, gitdir: this.gitdir, tree });
      written.push(oid);
      return oid;
    };
    return write(root);
  }
}
