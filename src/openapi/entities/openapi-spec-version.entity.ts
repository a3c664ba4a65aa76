import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Organization } from '../../orgs/entities/organization.entity';
import { OpenAPISpec } from './openapi-spec.entity';

/** The documents of a version: path (relative to the root document's folder) → document. */
export type OpenAPIFilesystem = Record<string, unknown>;

/**
 * One processed content of a specification, immutable: its documents (the root and the files
 * its relative `$ref`s reach), kept as parsed in a `json` column (which keeps the authors' key
 * order, as the order of paths and operations matters to readers), and the hash that tells
 * whether a new processing found anything new.
 */
@Entity('openapi_spec_versions')
@Index('IDX_openapi_spec_versions_spec_id_created_at', ['specId', 'createdAt', 'id'])
export class OpenAPISpecVersion {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_openapi_spec_versions',
  })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  specId!: string;

  @ManyToOne(() => OpenAPISpec, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'spec_id', foreignKeyConstraintName: 'FK_openapi_spec_versions_spec_id' })
  spec?: OpenAPISpec;

  @Index('IDX_openapi_spec_versions_organization_id')
  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organization_id',
    foreignKeyConstraintName: 'FK_openapi_spec_versions_organization_id',
  })
  organization?: Organization;

  /** SHA-256 of the root path, source URL and documents (as JSON, in their order). */
  @Column({ type: 'char', length: 64 })
  contentHash!: string;

  /** Where the root document was read (after redirects); null for a text source. */
  @Column({ type: 'varchar', length: 2048, nullable: true })
  sourceUrl!: string | null;

  /** The key of the root document in `filesystem`. */
  @Column({ type: 'varchar', length: 2048 })
  rootPath!: string;

  /** Not read by listings: it can weigh megabytes. */
  @Column({ type: 'json', select: false })
  filesystem?: OpenAPIFilesystem;

  /**
   * The root document's text exactly as it was given or fetched when this version was made;
   * null for versions made before it was kept. Not read by listings.
   */
  @Column({ type: 'text', nullable: true, select: false })
  rawText?: string | null;

  /** Whether `rawText` is JSON or YAML; null with it. */
  @Column({ type: 'varchar', length: 4, nullable: true })
  rawFormat!: 'json' | 'yaml' | null;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;
}

/** A version with its documents. */
export type OpenAPISpecVersionWithContent = OpenAPISpecVersion & {
  filesystem: OpenAPIFilesystem;
};
