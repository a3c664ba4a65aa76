import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { EventOutbox, userActor } from '../../platform/events/event-outbox';
import { JobsService } from '../../platform/jobs/jobs.service';
import { OutboundHttp, OutboundHttpError } from '../../platform/outbound-http';
import { DomainError } from '../../platform/errors/domain-error';
import { SpacesRepository } from '../../spaces/spaces.repository';
import { GitSync, type GitOperationStatus } from '../entities/git-sync.entity';
import { GitSyncsRepository } from '../git-syncs.repository';
import { CredentialsCipher, type GitCredentials } from '../remote/credentials-cipher';
import {
  GitHttpError,
  GitWorkspace,
  PushRejectedError,
  RefNotFound,
  type RemoteTarget,
} from '../remote/git-repository';
import { CorruptPackError } from '../remote/pack-unpacker';
import { GitProtocolError } from '../remote/pkt-line';
import { basicAuthorization, redactCredentials } from '../remote/remote-url';
import { GitExporter } from './git-exporter';
import { GitImporter } from './git-importer';
import { GitSyncFailure, type GitJob, type GitOperationContext } from './git-job';

export type { GitJob } from './git-job';

/** The queue of Git imports and exports, one job per operation. */
export const GIT_OPERATIONS_QUEUE = 'git-operations';

/**
 * The largest pack a fetch takes (10 GiB): every file of a commit may be as large as
 * GIT_MAX_FILE_BYTES allows, but a remote must not fill the disk.
 */
export const MAX_FETCH_BYTES = 10 * 1024 * 1024 * 1024;

/**
 * Runs Git imports and exports in the background and records their outcome on the space's
 * `git_syncs` row: `running`, then `complete` (with the commit) or `failed` (with a message
 * that never holds the credentials). A failure is recorded, not retried: the job ends well, so
 * the queue does not replay a push or an import the user did not ask for again.
 */
@Injectable()
export class GitOperations implements OnModuleInit {
  private readonly logger = new Logger('GitSync');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly syncs: GitSyncsRepository,
    private readonly jobs: JobsService,
    private readonly outbound: OutboundHttp,
    private readonly cipher: CredentialsCipher,
    private readonly importer: GitImporter,
    private readonly exporter: GitExporter,
    private readonly clock: Clock,
    private readonly outbox: EventOutbox,
    private readonly spaces: SpacesRepository,
  ) {}

  onModuleInit(): void {
    this.jobs.define<GitJob>(GIT_OPERATIONS_QUEUE, (job) => this.run(job));
  }

  async enqueue(job: GitJob): Promise<void> {
    try {
      await this.jobs.send<GitJob>(GIT_OPERATIONS_QUEUE, job, { retryLimit: 0 });
    } catch (error) {
      this.logger.error({ err: error, spaceId: job.spaceId }, 'Could not queue a Git operation');
      await this.record(job, 'failed', { error: 'The operation could not be queued; try again.' });
    }
  }

  async run(job: GitJob): Promise<void> {
    let credentials: GitCredentials | undefined;
    try {
      credentials = job.credentials ? this.cipher.decrypt(job.credentials) : undefined;
      if (!(await this.start(job))) return;
      const target: RemoteTarget = {
        url: job.url,
        ref: job.ref,
        headers: credentials ? { authorization: basicAuthorization(credentials) } : {},
      };
      const workspace = await GitWorkspace.open(this.outbound, MAX_FETCH_BYTES);
      try {
        const context: GitOperationContext = {
          job,
          workspace,
          target,
          stillCurrent: (manager) => this.notStale(manager, job),
          progress: (done, total) =>
            this.syncs.recordProgress(job.spaceId, job.operationId, done, total),
        };
        const outcome =
          job.kind === 'import'
            ? await this.importer.run(context)
            : await this.exporter.run(context);
        await this.record(job, outcome.applied ? 'complete' : 'ignored', {
          commit: outcome.commit,
          warnings: outcome.warnings,
          changeRequestId: outcome.changeRequest?.id,
        });
      } finally {
        await workspace.close();
      }
    } catch (error) {
      const message = redactCredentials(describeFailure(error, job), credentials);
      this.logger.warn(
        { spaceId: job.spaceId, kind: job.kind, reason: message },
        'Git operation failed',
      );
      await this.record(job, 'failed', { error: message });
    }
  }

  /**
   * Marks the operation `running`; false when it is stale, or when its job was delivered
   * again (the queue may do so after a crash): the row names it and it already started.
   */
  private async start(job: GitJob): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const row = await this.syncs.lockOperation(job.spaceId, manager);
      if (row?.operationId === job.operationId && row.operationStatus !== 'pending') {
        return false;
      }
      if (!(await this.notStale(manager, job))) {
        await this.recordWith(manager, job, 'ignored', {});
        return false;
      }
      await this.recordWith(manager, job, 'running', {});
      return true;
    });
  }

  /** The operation's `timestamp` is not older than the last applied one (or `force`). */
  private async notStale(manager: EntityManager, job: GitJob): Promise<boolean> {
    const row = await this.syncs.lockLastAppliedAt(job.spaceId, manager);
    if (!row) return false;
    const last = row.lastAppliedAt;
    if (job.force || !job.timestamp || !last) return true;
    return new Date(job.timestamp).getTime() >= new Date(last).getTime();
  }

  private record(
    job: GitJob,
    status: GitOperationStatus,
    details: { error?: string; commit?: string; warnings?: string[]; changeRequestId?: string },
  ): Promise<void> {
    return this.dataSource.transaction((manager) => this.recordWith(manager, job, status, details));
  }

  /**
   * Writes the operation's status on the row, when the row still names this operation (a later
   * request owns the row otherwise); a complete operation with a `timestamp` moves
   * `last_applied_at` forward.
   */
  async recordWith(
    manager: EntityManager,
    job: GitJob,
    status: GitOperationStatus,
    details: { error?: string; commit?: string; warnings?: string[]; changeRequestId?: string },
  ): Promise<void> {
    const now = this.clock.now();
    const done = status !== 'pending' && status !== 'running';
    if (status === 'complete' && job.timestamp) {
      await this.syncs.advanceLastAppliedAt(job.spaceId, new Date(job.timestamp), manager);
    }
    await manager.update(
      GitSync,
      { spaceId: job.spaceId, operationId: job.operationId },
      {
        operationStatus: status,
        operationError: details.error ?? null,
        operationWarnings: details.warnings?.length ? details.warnings : null,
        operationChangeRequestId: details.changeRequestId ?? null,
        ...(details.commit !== undefined ? { operationCommit: details.commit } : {}),
        operationCompletedAt: done ? now : null,
        updatedAt: now,
      },
    );
    if (status === 'running' || status === 'complete' || status === 'failed') {
      await this.recordEvent(manager, job, status, details);
    }
  }

  /**
   * GitBook's `space_gitsync_started` and `space_gitsync_completed`: the space's primary
   * revision (after the operation, for a completed one) and the commit, when known.
   */
  private async recordEvent(
    manager: EntityManager,
    job: GitJob,
    status: 'running' | 'complete' | 'failed',
    details: { error?: string; commit?: string; warnings?: string[]; changeRequestId?: string },
  ): Promise<void> {
    const organizationId = await this.spaces.organizationOf(job.spaceId, manager);
    const head = await this.spaces.findHead(job.spaceId, '', manager);
    if (organizationId === undefined || !head) return;
    await this.outbox.record(manager, {
      type: status === 'running' ? 'space_gitsync_started' : 'space_gitsync_completed',
      organizationId,
      resource: { type: 'space', id: job.spaceId },
      spaceId: job.spaceId,
      actor: userActor(job.authorId),
      fields: {
        spaceId: job.spaceId,
        ...(status === 'running' ? {} : { state: status === 'complete' ? 'success' : 'failure' }),
        revisionId: head.revisionId,
        commitId: details.commit ?? '',
        operation: job.kind,
        operationId: job.operationId,
        ...(details.error ? { error: details.error } : {}),
        ...(details.warnings?.length ? { warnings: details.warnings } : {}),
        ...(details.changeRequestId ? { changeRequestId: details.changeRequestId } : {}),
      },
    });
  }
}

/** A message for `git/info`: what went wrong, for a person, without internals. */
function describeFailure(error: unknown, job: GitJob): string {
  if (error instanceof RefNotFound) {
    return `The repository has no ${job.ref} (or cannot be read).`;
  }
  if (
    error instanceof OutboundHttpError ||
    error instanceof DomainError ||
    error instanceof GitSyncFailure
  ) {
    return error.message;
  }
  if (error instanceof GitHttpError) {
    const status = error.statusCode;
    if (status === 401 || status === 403) {
      return `The repository refused the credentials (HTTP ${status}).`;
    }
    if (status === 404) return 'The repository was not found (HTTP 404).';
    return `The repository answered HTTP ${status} ${error.statusMessage}`.trim() + '.';
  }
  if (error instanceof PushRejectedError) {
    return error.reason === 'not-fast-forward'
      ? `The push to ${job.ref} was rejected (not a fast-forward); export with force to overwrite it.`
      : error.message;
  }
  if (error instanceof GitProtocolError || error instanceof CorruptPackError) {
    return `The repository's answer could not be read: ${error.message}`;
  }
  return error instanceof Error
    ? `The Git operation failed: ${error.message}`
    : 'The Git operation failed.';
}
