import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../platform/clock/clock';
import { invalidInput, notFound } from '../platform/errors/domain-error';
import { newId } from '../platform/ids/ids';
import type { Space } from '../spaces/entities/space.entity';
import type { ExportToGitRepositoryDto, ImportGitRepositoryDto } from './dto/git-operation.dto';
import { GitSync, type GitOperationKind } from './entities/git-sync.entity';
import { GitSyncsRepository } from './git-syncs.repository';
import { GitOperations, type GitJob } from './jobs/git-operations';
import { cleanPath } from './layout/layout-reader';
import { CredentialsCipher } from './remote/credentials-cipher';
import { normalizeRef } from './remote/refs';
import { parseRemoteUrl } from './remote/remote-url';

/**
 * Git import and export requests: each records the space's Git setup and its latest operation
 * (`pending`) and queues the job that does the work (GitOperations). An operation whose
 * `timestamp` is older than the last applied one is ignored, unless `force`.
 */
@Injectable()
export class GitService {
  private readonly logger = new Logger('GitSync');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly syncs: GitSyncsRepository,
    private readonly operations: GitOperations,
    private readonly cipher: CredentialsCipher,
    private readonly clock: Clock,
  ) {}

  async info(spaceId: string): Promise<GitSync> {
    const sync = await this.dataSource.manager.findOneBy(GitSync, { spaceId });
    if (!sync) throw notFound('Git setup');
    return sync;
  }

  requestImport(space: Space, authorId: string, body: ImportGitRepositoryDto): Promise<void> {
    return this.request('import', space, authorId, body);
  }

  requestExport(space: Space, authorId: string, body: ExportToGitRepositoryDto): Promise<void> {
    return this.request('export', space, authorId, body);
  }

  /** Removes a legacy (`github-legacy`) provider; nothing to do when there is none. */
  async deleteLegacyInstallation(spaceId: string): Promise<void> {
    await this.syncs.clearLegacyProvider(spaceId, this.clock.now());
  }

  private async request(
    kind: GitOperationKind,
    space: Space,
    authorId: string,
    body: ImportGitRepositoryDto | ExportToGitRepositoryDto,
  ): Promise<void> {
    const remote = parseRemoteUrl(body.url);
    const ref = normalizeRef(body.ref);
    const directory = cleanPath(body.repoProjectDirectory ?? '');
    if (directory === null) {
      throw invalidInput('repoProjectDirectory: must be a folder inside the repository.');
    }
    const timestamp = body.timestamp !== undefined ? new Date(body.timestamp) : null;
    const force = body.force === true;
    const now = this.clock.now();
    const operationId = newId();
    const accepted = await this.dataSource.transaction(async (manager) => {
      const [existing] = await manager.find(GitSync, {
        where: { spaceId: space.id },
        lock: { mode: 'pessimistic_write' },
      });
      if (
        existing?.lastAppliedAt &&
        timestamp &&
        timestamp.getTime() < existing.lastAppliedAt.getTime() &&
        !force
      ) {
        return false;
      }
      await manager.upsert(
        GitSync,
        {
          spaceId: space.id,
          organizationId: space.organizationId,
          url: remote.url,
          ref,
          projectDirectory: directory || null,
          provider: body.gitInfo?.provider ?? existing?.provider ?? null,
          treeUrl: body.gitInfo?.url ?? body.repoTreeURL ?? existing?.treeUrl ?? null,
          commitUrl: body.repoCommitURL ?? existing?.commitUrl ?? null,
          lastAppliedAt: existing?.lastAppliedAt ?? null,
          operationId,
          operationKind: kind,
          operationStatus: 'pending',
          operationError: null,
          operationWarnings: null,
          operationChangeRequestId: null,
          operationDone: null,
          operationTotal: null,
          operationCommit: null,
          operationRequestedAt: now,
          operationCompletedAt: null,
          createdAt: existing?.createdAt ?? now,
          updatedAt: now,
        },
        ['spaceId'],
      );
      return true;
    });
    if (!accepted) {
      this.logger.log(
        { spaceId: space.id, kind },
        'Git operation older than the last applied one: ignored',
      );
      return;
    }
    const job: GitJob = {
      operationId,
      spaceId: space.id,
      kind,
      url: remote.url,
      ...(remote.credentials ? { credentials: this.cipher.encrypt(remote.credentials) } : {}),
      ref,
      directory,
      ...(timestamp ? { timestamp: timestamp.toISOString() } : {}),
      force,
      standalone: 'standalone' in body && body.standalone === true,
      ...('commitMessage' in body ? { commitMessage: body.commitMessage } : {}),
      ...(body.repoCommitURL ? { commitUrl: body.repoCommitURL } : {}),
      authorId,
    };
    await this.operations.enqueue(job);
  }
}
