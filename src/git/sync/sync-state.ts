import { posix } from 'node:path';
import type { FileNode, PageNode } from '../../content-engine/tree/format';
import { GitSyncState, type SyncedEntry } from '../entities/git-sync-state.entity';
import type { GitJob } from '../jobs/git-job';
import { sha256Hex } from '../../platform/ids/ids';

/** The key of a repository and directory among a space's sync states. */
export function repositoryKey(job: Pick<GitJob, 'url' | 'directory'>): string {
  return sha256Hex(`${job.url}\n${job.directory}`);
}

/**
 * What each path (relative to the content root `root`) held at the last sync. Without a state
 * (a space synced before states were kept, or with another repository), what the base's pages
 * and files say in `git` (their blob and path), under `directory` and `root`.
 */
export function previousEntries(
  state: GitSyncState | undefined,
  root: string,
  base: {
    directory: string;
    pages: ReadonlyMap<string, { node: Pick<PageNode, 'id' | 'meta'> }>;
    files: ReadonlyMap<string, { node: Pick<FileNode, 'id' | 'git'> }>;
  },
): Map<string, SyncedEntry> {
  const entries = new Map<string, SyncedEntry>();
  if (state) {
    for (const [path, entry] of Object.entries(state.entries)) {
      const moved = relativeTo(posix.join(state.layout.root, path), root);
      if (moved !== undefined) entries.set(moved, entry);
    }
    return entries;
  }
  const prefix = posix.join(base.directory, root);
  const add = (kind: 'page' | 'file', id: string, git: unknown) => {
    const { oid, path } = (git ?? {}) as { oid?: unknown; path?: unknown };
    if (typeof oid !== 'string' || typeof path !== 'string') return;
    const relative = relativeTo(path, prefix);
    if (relative !== undefined && !entries.has(relative)) entries.set(relative, { kind, id, oid });
  };
  for (const { node } of base.pages.values()) add('page', node.id, node.meta.git);
  for (const { node } of base.files.values()) add('file', node.id, node.git);
  return entries;
}

/** `path` relative to the folder `dir` ('' or '.' = the top), or undefined when outside it. */
export function relativeTo(path: string, dir: string): string | undefined {
  if (dir === '' || dir === '.') return path;
  return path.startsWith(`${dir}/`) ? path.slice(dir.length + 1) : undefined;
}

/** A state for the job's repository and directory. */
export function newSyncState(
  job: Pick<GitJob, 'spaceId' | 'url' | 'directory' | 'ref'>,
  fields: Pick<
    GitSyncState,
    'commit' | 'revisionId' | 'layout' | 'entries' | 'redirects' | 'summaryRendered' | 'syncedAt'
  >,
): GitSyncState {
  return Object.assign(new GitSyncState(), {
    spaceId: job.spaceId,
    repositoryKey: repositoryKey(job),
    url: job.url,
    directory: job.directory,
    ref: job.ref,
    conflict: null,
    ...fields,
  });
}
