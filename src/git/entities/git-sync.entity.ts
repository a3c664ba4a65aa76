import { Column, Entity, Index, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { Space } from '../../spaces/entities/space.entity';

export const GIT_OPERATION_KINDS = ['import', 'export'] as const;
export type GitOperationKind = (typeof GIT_OPERATION_KINDS)[number];

/** `pending` (queued) → `running` → `complete` or `failed`; `ignored` (stale `timestamp`). */
export const GIT_OPERATION_STATUSES = [
  'pending',
  'running',
  'complete',
  'failed',
  'ignored',
] as const;
export type GitOperationStatus = (typeof GIT_OPERATION_STATUSES)[number];

/** GitBook's `GitSyncProvider` values accepted as `gitInfo.provider` (REFERENCE §14). */
export const GIT_PROVIDERS = ['github', 'gitlab'] as const;

/**
 * The Git setup of a space, made by its first import or export: the repository (its URL
 * without credentials: those travel only, encrypted, in the job that uses them), the ref, and
 * the latest operation with its outcome, so that a failure stays visible in `git/info`.
 * `lastAppliedAt` is the `timestamp` of the last operation applied: older ones are ignored.
 */
@Entity('git_syncs')
@Index('IDX_git_syncs_organization_id', ['organizationId'])
export class GitSync {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_git_syncs' })
  spaceId!: string;

  @OneToOne(() => Space, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'space_id', foreignKeyConstraintName: 'FK_git_syncs_space_id' })
  space?: Space;

  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  /** The repository URL, never with a user name or password. */
  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  @Column({ type: 'varchar', length: 255 })
  ref!: string;

  @Column({ type: 'varchar', length: 1024, nullable: true })
  projectDirectory!: string | null;

  /** `gitInfo.provider` (github, gitlab) or `github-legacy`. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  provider!: string | null;

  /** `gitInfo.url`, else `repoTreeURL`: where readers browse the repository. */
  @Column({ type: 'varchar', length: 2048, nullable: true })
  treeUrl!: string | null;

  /** `repoCommitURL`: prefix of a commit's URL (`url` of the revisions' `git`). */
  @Column({ type: 'varchar', length: 2048, nullable: true })
  commitUrl!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastAppliedAt!: Date | null;

  /** The latest operation asked for: only its job records an outcome here. */
  @Column({ type: 'varchar', length: 32 })
  operationId!: string;

  @Column({ type: 'varchar', length: 8 })
  operationKind!: GitOperationKind;

  @Column({ type: 'varchar', length: 16 })
  operationStatus!: GitOperationStatus;

  @Column({ type: 'text', nullable: true })
  operationError!: string | null;

  /** The commit imported or exported by the operation. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  operationCommit!: string | null;

  /** What the operation left out though it succeeded (files over the size limit), or null. */
  @Column({ type: 'jsonb', nullable: true })
  operationWarnings!: string[] | null;

  /** An import that conflicted with the space's changes: the change request holding it. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  operationChangeRequestId!: string | null;

  /** Progress of a running operation: files done of `operationTotal` (null before it knows). */
  @Column({ type: 'integer', nullable: true })
  operationDone!: number | null;

  @Column({ type: 'integer', nullable: true })
  operationTotal!: number | null;

  @Column({ type: 'timestamptz' })
  operationRequestedAt!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  operationCompletedAt!: Date | null;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;
}
