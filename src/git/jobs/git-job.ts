import type { EntityManager } from 'typeorm';
import type { GitOperationKind } from '../entities/git-sync.entity';
import type { GitWorkspace, RemoteTarget } from '../remote/git-repository';

/** What a job carries. The URL has no credentials: they travel sealed in `credentials`. */
export interface GitJob {
  operationId: string;
  spaceId: string;
  kind: GitOperationKind;
  url: string;
  credentials?: string;
  ref: string;
  /** The project directory in the repository ('' = its root). */
  directory: string;
  timestamp?: string;
  force: boolean;
  standalone: boolean;
  commitMessage?: string;
  /** `repoCommitURL`: prefix of a commit's URL. */
  commitUrl?: string;
  authorId: string;
}

/** The `url` of a revision's `git`: `repoCommitURL` + the commit, else the repository's URL. */
export function commitUrl(job: GitJob, oid: string): string {
  return job.commitUrl ? `${job.commitUrl.replace(/\/+$/, '')}/${oid}` : job.url;
}

/** What an operation hands the code that records its outcome. */
export interface GitOperationContext {
  job: GitJob;
  workspace: GitWorkspace;
  target: RemoteTarget;
  /** Checks again, in the recording transaction, that the operation is not stale. */
  stillCurrent(manager: EntityManager): Promise<boolean>;
  /** Reports progress: `done` files of `total` (recorded on the operation, for `git/info`). */
  progress(done: number, total: number): Promise<void>;
}

/** A failure whose message is meant for `git/info` as it is. */
export class GitSyncFailure extends Error {}

/** What an operation did. */
export interface GitOutcome {
  /** False when the operation turned out stale and nothing was written. */
  applied: boolean;
  commit?: string;
  /** What was left out though the operation succeeded. */
  warnings?: string[];
  /** An import that conflicts with the space's changes: the change request proposing it. */
  changeRequest?: { id: string; number: number };
}
