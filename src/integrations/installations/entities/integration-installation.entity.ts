import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Organization } from '../../../orgs/entities/organization.entity';
import { Integration } from '../../entities/integration.entity';

export const INSTALLATION_SELECTIONS = ['all', 'selected'] as const;
export type InstallationSelection = (typeof INSTALLATION_SELECTIONS)[number];

/** GitBook's `IntegrationInstallationStatus`. */
export const INSTALLATION_STATUSES = ['active', 'pending', 'paused'] as const;
export type InstallationStatus = (typeof INSTALLATION_STATUSES)[number];

/**
 * An integration installed on an organization (GitBook's `IntegrationInstallation`, its
 * `target.organization`): at most one per integration and organization. Its account-level
 * `configuration` was validated against the integration's `configurations.account` when it was
 * written; its status is not kept but read from the integration's current schema
 * (installation-status.ts), so a new version's required field shows at once.
 */
@Entity('integration_installations')
@Index(
  'UQ_integration_installations_integration_organization',
  ['integrationId', 'organizationId'],
  {
    unique: true,
  },
)
export class IntegrationInstallation {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_integration_installations',
  })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  integrationId!: string;

  @ManyToOne(() => Integration, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'integration_id',
    foreignKeyConstraintName: 'FK_integration_installations_integration_id',
  })
  integration?: Integration;

  @Index('IDX_integration_installations_organization_id')
  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organization_id',
    foreignKeyConstraintName: 'FK_integration_installations_organization_id',
  })
  organization?: Organization;

  @Column({ type: 'jsonb' })
  configuration!: Record<string, unknown>;

  @Column({ type: 'varchar', length: 16 })
  spaceSelection!: InstallationSelection;

  @Column({ type: 'varchar', length: 16 })
  siteSelection!: InstallationSelection;

  /** Ids the integration gave the installation in its own system (GitBook: at most 5). */
  @Column({ type: 'varchar', length: 512, array: true })
  externalIds!: string[];

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;
}
