import * as fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git, { type HttpClient } from 'isomorphic-git';

/** A blob of a commit's tree. */
export interface TreeBlob {
  oid: string;
  data: Buffer;
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

const LOCAL_BRANCH = 'refs/heads/bindery';
const FILE_MODE = '100644';

/** Thrown when the remote has no such ref (or no commit at all). */
export class RefNotFound extends Error {}

/**
 * A throw-away bare repository in a temporary directory, through isomorphic-git: a shallow
 * fetch of one ref, a commit built from trees in memory (no working copy), a push. `close()`
 * removes the directory.
 */
export class GitWorkspace {
  private constructor(
    private readonly gitdir: string,
    private readonly http: HttpClient,
  ) {}

  static async open(http: HttpClient): Promise<GitWorkspace> {
    const gitdir = await mkdtemp(join(tmpdir(), 'bindery-git-'));
    await git.init({ fs, gitdir, bare: true, defaultBranch: 'bindery' });
    return new GitWorkspace(gitdir, http);
  }

  async close(): Promise<void> {
    await rm(this.gitdir, { recursive: true, force: true });
  }

  /** The head commit of `target.ref` (depth 1); RefNotFound when the remote lacks it. */
  async fetchHead(target: RemoteTarget): Promise<string> {
    let result: Awaited<ReturnType<typeof git.fetch>>;
    await git.addRemote({
      fs,
      gitdir: this.gitdir,
      remote: 'origin',
      url: target.url,
      force: true,
    });
    try {
      result = await git.fetch({
        fs,
        http: this.http,
        gitdir: this.gitdir,
        remote: 'origin',
        ref: target.ref,
        singleBranch: true,
        depth: 1,
        tags: false,
        headers: target.headers,
      });
    } catch (error) {
      if (error instanceof git.Errors.NotFoundError) throw new RefNotFound(target.ref);
      throw error;
    }
    if (!result.fetchHead) throw new RefNotFound(target.ref);
    return result.fetchHead;
  }

  /**
   * A fetched commit with the blobs of its tree that `wanted` selects (paths from the
   * repository's root). Folders that `wanted` rejects as folders (`isFolder` true) are not
   * walked, so a large repository costs only the part that is read.
   */
  async read(
    oid: string,
    wanted: (path: string, isFolder: boolean) => boolean = () => true,
  ): Promise<FetchedCommit> {
    const { commit } = await git.readCommit({ fs, gitdir: this.gitdir, oid });
    const files = new Map<string, TreeBlob>();
    await git.walk({
      fs,
      gitdir: this.gitdir,
      trees: [git.TREE({ ref: oid })],
      map: async (path, [entry]) => {
        if (!entry || path === '.') return true;
        const type = await entry.type();
        if (type === 'tree') return wanted(path, true) ? true : null;
        if (type === 'blob' && wanted(path, false)) {
          const content = await entry.content();
          files.set(path, { oid: await entry.oid(), data: Buffer.from(content ?? []) });
        }
        return true;
      },
    });
    return { oid, message: commit.message, files };
  }

  /**
   * Commits on top of `parent` (or as a first commit) its tree with `deletes` removed and
   * `writes` written (paths from the repository's root), and pushes it to `target.ref`. When
   * the tree comes out as the parent's, nothing is committed or pushed (`committed` false, `oid`
   * the parent). Returns every file of the tree with its blob.
   */
  async commitAndPush(input: {
    target: RemoteTarget;
    parent: string | null;
    writes: ReadonlyMap<string, Buffer>;
    deletes: ReadonlySet<string>;
    message: string;
    author: Author;
    force: boolean;
  }): Promise<{ oid: string; committed: boolean; files: Map<string, string> }> {
    const entries = input.parent
      ? await this.listFiles(input.parent)
      : new Map<string, { oid: string; mode: string }>();
    for (const path of input.deletes) entries.delete(path);
    for (const [path, data] of input.writes) {
      const oid = await git.writeBlob({ fs, gitdir: this.gitdir, blob: data });
      const mode = entries.get(path)?.mode;
      entries.set(path, { oid, mode: mode === '100755' ? mode : FILE_MODE });
    }
    const files = new Map([...entries].map(([path, entry]) => [path, entry.oid]));
    const tree = await this.writeTrees(entries);
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
    const pushed = await git.push({
      fs,
      http: this.http,
      gitdir: this.gitdir,
      url: input.target.url,
      ref: LOCAL_BRANCH,
      remoteRef: input.target.ref,
      force: input.force,
      headers: input.target.headers,
    });
    if (!pushed.ok) {
      const refs = Object.values(pushed.refs ?? {}).find((ref) => !ref.ok);
      throw new Error(`The remote refused the push${refs?.error ? `: ${refs.error}` : ''}.`);
    }
    return { oid, committed: true, files };
  }

  /** The bytes of a blob of a fetched commit. */
  async readBlob(oid: string): Promise<Buffer> {
    const { blob } = await git.readBlob({ fs, gitdir: this.gitdir, oid });
    return Buffer.from(blob);
  }

  /** Every file (and submodule) of a fetched commit's tree, by path, with its blob and mode. */
  async listFiles(oid: string): Promise<Map<string, { oid: string; mode: string }>> {
    const entries = new Map<string, { oid: string; mode: string }>();
    await git.walk({
      fs,
      gitdir: this.gitdir,
      trees: [git.TREE({ ref: oid })],
      map: async (path, [entry]) => {
        if (!entry || path === '.') return true;
        const type = await entry.type();
        if (type === 'blob' || type === 'commit') {
          entries.set(path, { oid: await entry.oid(), mode: (await entry.mode()).toString(8) });
        }
        return true;
      },
    });
    return entries;
  }

  /** Writes the tree objects of `entries` (full paths), deepest first; returns the root's oid. */
  private async writeTrees(entries: Map<string, { oid: string; mode: string }>): Promise<string> {
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
      return git.writeTree({ fs, gitdir: this.gitdir, tree });
    };
    return write(root);
  }
}
