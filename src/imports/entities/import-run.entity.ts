import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Organization } from '../../orgs/entities/organization.entity';
import { Space } from '../../spaces/entities/space.entity';

/** GitBook's `ContentImportRun.status`. */
export const IMPORT_RUN_STATUSES = [
  'pending',
  'in-progress',
  'completed',
  'failed',
  'cancelled',
] as const;
export type ImportRunStatus = (typeof IMPORT_RUN_STATUSES)[number];

/** GitBook's `ContentImportSource`: a website by URL, or uploaded files by storage key. */
export type ImportSource = { type: 'website'; url: string } | { type: 'file'; files: string[] };

/**
 * A run of an import (GitBook's content imports): content from a website or uploaded files,
 * converted to pages and written into a change request of `spaceId` in the background
 * (src/imports/import-runner.ts). The space's primary content never changes: a person reviews
 * and merges the change request.
 */
@Entity('import_runs')
@Index('IDX_import_runs_organization_id_created_at', ['organizationId', 'createdAt', 'id'])
@Index('IDX_import_runs_space_id', ['spaceId'])
export class ImportRun {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_import_runs' })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organization_id',
    foreignKeyConstraintName: 'FK_import_runs_organization_id',
  })
  organization?: Organization;

  @Column({ type: 'varchar', length: 32 })
  spaceId!: string;

  @ManyToOne(() => Space, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'space_id', foreignKeyConstraintName: 'FK_import_runs_space_id' })
  space?: Space;

  /** The change request written into: the target's, or the one the run opened (once it has). */
  @Column({ type: 'varchar', length: 32, nullable: true })
  changeRequestId!: string | null;

  /** The page the content goes under (`target.page`); null: at the top level. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  pageId!: string | null;

  /** The site the import is for: the request's `site`, else the one site showing the space. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  siteId!: string | null;

  @Column({ type: 'jsonb' })
  source!: ImportSource;

  /** As asked (GitBook's AI enhancement); Bindery imports the content as converted. */
  @Column({ type: 'boolean' })
  enhance!: boolean;

  @Column({ type: 'varchar', length: 16 })
  status!: ImportRunStatus;

  /** Why the run failed (or was cancelled). */
  @Column({ type: 'text', nullable: true })
  reason!: string | null;

  /** What the conversion could not bring over as it was, page by page, in words. */
  @Column({ type: 'jsonb' })
  warnings!: string[];

  /** Progress: pages converted (or fetched) so far, of those found so far. */
  @Column({ type: 'integer' })
  pagesDone!: number;

  @Column({ type: 'integer' })
  pagesTotal!: number;

  @Column({ type: 'varchar', length: 32, nullable: true })
  createdBy!: string | null;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  /** Written at each step of the run: a run that stops reporting is answered failed. */
  @Column({ type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  startedAt!: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  completedAt!: Date | null;
}
