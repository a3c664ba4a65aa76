import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Organization } from '../../orgs/entities/organization.entity';

export const INTEGRATION_VISIBILITIES = ['public', 'private', 'unlisted'] as const;
export type IntegrationVisibility = (typeof INTEGRATION_VISIBILITIES)[number];

export const INTEGRATION_TARGETS = ['all', 'site', 'space', 'organization'] as const;
export type IntegrationTarget = (typeof INTEGRATION_TARGETS)[number];

export const INTEGRATION_RUNTIMES = ['v1', 'v2'] as const;
export type IntegrationRuntime = (typeof INTEGRATION_RUNTIMES)[number];

/** GitBook's `IntegrationScope`: what an installation lets the integration do. */
export const INTEGRATION_SCOPES = [
  'space:content:read',
  'space:content:write',
  'space:metadata:read',
  'space:metadata:write',
  'space:git:sync',
  'page:feedback:read',
  'site:metadata:read',
  'site:views:read',
  'site:script:inject',
  'site:script:cookies',
  'site:visitor:auth',
  'site:visitor:claims',
  'site:adaptive:read',
  'site:adaptive:write',
  'conversations:ingest',
  'openapi:read',
  'openapi:write',
] as const;
export type IntegrationScope = (typeof INTEGRATION_SCOPES)[number];

export const INTEGRATION_CATEGORIES = [
  'analytics',
  'collaboration',
  'content',
  'marketing',
  'visitor-auth',
  'other',
] as const;
export type IntegrationCategory = (typeof INTEGRATION_CATEGORIES)[number];

/** The manifest's parts kept as GitBook shapes them (validated on publish). */
export type IntegrationBlock = Record<string, unknown> & { id: string; title: string };
export type IntegrationConfigurations = Partial<
  Record<'account' | 'space' | 'site', Record<string, unknown>>
>;

/**
 * An integration published to this instance: the manifest of its current `version` (each
 * publish makes the next), owned by the organization that published it, named uniquely on the
 * instance. Its scripts are IntegrationVersion rows; its icon and preview images are blobs by
 * SHA-256. Development mode sends its events to `devTunnelUrl` instead of its script.
 */
@Entity('integrations')
export class Integration {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_integrations' })
  id!: string;

  @Index('UQ_integrations_name', { unique: true })
  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Index('IDX_integrations_organization_id')
  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organization_id',
    foreignKeyConstraintName: 'FK_integrations_organization_id',
  })
  organization?: Organization;

  @Column({ type: 'integer' })
  version!: number;

  @Column({ type: 'varchar', length: 8 })
  runtime!: IntegrationRuntime;

  @Column({ type: 'varchar', length: 30 })
  title!: string;

  @Column({ type: 'varchar', length: 100 })
  description!: string;

  @Column({ type: 'text', nullable: true })
  summary!: string | null;

  @Column({ type: 'char', length: 64, nullable: true })
  iconDigest!: string | null;

  @Column({ type: 'char', length: 64, array: true })
  previewImageDigests!: string[];

  @Column({ type: 'varchar', length: 16 })
  visibility!: IntegrationVisibility;

  @Column({ type: 'varchar', length: 16 })
  target!: IntegrationTarget;

  @Column({ type: 'varchar', length: 64, array: true })
  scopes!: IntegrationScope[];

  @Column({ type: 'varchar', length: 32, array: true })
  categories!: IntegrationCategory[];

  @Column({ type: 'jsonb' })
  blocks!: IntegrationBlock[];

  @Column({ type: 'jsonb' })
  contentSources!: Record<string, unknown>[];

  @Column({ type: 'jsonb' })
  externalLinks!: { url: string; label: string }[];

  @Column({ type: 'jsonb' })
  configurations!: IntegrationConfigurations;

  @Column({ type: 'jsonb', nullable: true })
  contentSecurityPolicy!: string | Record<string, string> | null;

  /** The secrets as a JSON object, sealed with the instance key (SealedText); null: none. */
  @Column({ type: 'text', nullable: true })
  secrets!: string | null;

  @Column({ type: 'varchar', length: 256, nullable: true })
  devTunnelUrl!: string | null;

  /** Development mode for every organization's installations, not only the owner's. */
  @Column({ type: 'boolean', default: false })
  devAll!: boolean;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;
}
