import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Organization } from '../../orgs/entities/organization.entity';

/** GitBook's `OpenAPISpecProcessingState`. */
export const OPENAPI_PROCESSING_STATES = ['pending', 'progress', 'complete'] as const;
export type OpenAPIProcessingState = (typeof OPENAPI_PROCESSING_STATES)[number];

/** GitBook's `OpenAPISpecProcessingErrorCode`. */
export const OPENAPI_PROCESS_ERROR_CODES = ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const;
export type OpenAPIProcessErrorCode = (typeof OPENAPI_PROCESS_ERROR_CODES)[number];

/** GitBook's `OpenAPISpecVisibility`. */
export const OPENAPI_VISIBILITIES = ['private', 'public'] as const;
export type OpenAPIVisibility = (typeof OPENAPI_VISIBILITIES)[number];

/** GitBook's `OpenAPIErrorObject`: one problem of the last processing. */
export interface OpenAPIProcessProblem {
  message: string;
  code: string;
}

/**
 * An OpenAPI specification of an organization, known by its slug: where it comes from (a URL,
 * fetched again on a schedule, or a text given once), the state of its processing, and its
 * latest version. `sourceRevision` counts the changes of source, so a processing that started
 * before a PUT does not record its outcome over the newer source's.
 */
@Entity('openapi_specs')
@Index('UQ_openapi_specs_organization_id_slug', ['organizationId', 'slug'], { unique: true })
@Index('IDX_openapi_specs_organization_id_created_at', ['organizationId', 'createdAt', 'id'])
// What the refresh schedule looks for: URL sources processed longest ago, and stuck work.
@Index('IDX_openapi_specs_refresh', ['lastProcessedAt'], {
  where: `"source_url" IS NOT NULL AND "processing_state" = 'complete'`,
})
@Index('IDX_openapi_specs_queued_at', ['queuedAt'], {
  where: `"processing_state" <> 'complete'`,
})
export class OpenAPISpec {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_openapi_specs' })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organization_id',
    foreignKeyConstraintName: 'FK_openapi_specs_organization_id',
  })
  organization?: Organization;

  /** Unique in the organization, compared exactly (upper case allowed, as the seed says). */
  @Column({ type: 'varchar', length: 100 })
  slug!: string;

  /** The URL the specification is fetched from; null for a text source. */
  @Column({ type: 'varchar', length: 2048, nullable: true })
  sourceUrl!: string | null;

  /** The specification given as text; null for a URL source. Read only by the processing. */
  @Column({ type: 'text', nullable: true, select: false })
  sourceText?: string | null;

  @Column({ type: 'integer', default: 1 })
  sourceRevision!: number;

  @Column({ type: 'varchar', length: 16, default: 'private' })
  visibility!: OpenAPIVisibility;

  @Column({ type: 'varchar', length: 16 })
  processingState!: OpenAPIProcessingState;

  /** When the last processing was asked for (creation, PUT, refresh). */
  @Column({ type: 'timestamptz' })
  queuedAt!: Date;

  /** The latest version (a row of `openapi_spec_versions` of this spec); null before the first. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  lastVersionId!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastProcessedAt!: Date | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  lastProcessErrorCode!: OpenAPIProcessErrorCode | null;

  @Column({ type: 'jsonb', nullable: true })
  lastProcessedErrors!: OpenAPIProcessProblem[] | null;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;
}
