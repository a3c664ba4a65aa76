import { Injectable } from '@nestjs/common';
import type { GitSyncStateResponse } from './dto/git-sync-state.response';
import type { GitSync } from './entities/git-sync.entity';

/** Integration names GitBook gives its Git Sync providers. */
const INTEGRATIONS: Record<string, string> = { github: 'github-sync', gitlab: 'gitlab-sync' };

@Injectable()
export class GitPresenter {
  /** GitBook's `GitSyncState`, plus the latest operation (`lastOperation`). */
  state(sync: GitSync): GitSyncStateResponse {
    const integration = sync.provider ? INTEGRATIONS[sync.provider] : undefined;
    return {
      repoName: repositoryName(sync.url),
      ...(sync.provider ? { installationProvider: sync.provider } : {}),
      ...(integration ? { integration } : {}),
      url: sync.treeUrl ?? sync.url,
      updatedAt: sync.updatedAt.toISOString(),
      lastOperation: {
        kind: sync.operationKind,
        status: sync.operationStatus,
        ref: sync.ref,
        ...(sync.operationError !== null ? { error: sync.operationError } : {}),
        ...(sync.operationCommit !== null ? { commit: sync.operationCommit } : {}),
        ...(sync.operationWarnings !== null ? { warnings: sync.operationWarnings } : {}),
        ...(sync.operationChangeRequestId !== null
          ? { changeRequest: sync.operationChangeRequestId }
          : {}),
        ...(sync.operationTotal !== null
          ? { progress: { done: sync.operationDone ?? 0, total: sync.operationTotal } }
          : {}),
        requestedAt: sync.operationRequestedAt.toISOString(),
        ...(sync.operationCompletedAt !== null
          ? { completedAt: sync.operationCompletedAt.toISOString() }
          : {}),
      },
    };
  }
}

/** `owner/repository` from `https://host/owner/repository.git`. */
export function repositoryName(url: string): string {
  const path = new URL(url).pathname.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '');
  return path || new URL(url).host;
}
