import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Organization } from '../../../orgs/entities/organization.entity';
import { Site } from '../../../sites/entities/site.entity';
import { IntegrationInstallation } from './integration-installation.entity';

/**
 * An organization's installation of an integration, installed on one of its sites (GitBook's
 * `IntegrationSiteInstallation`): one per installation and site. Its `configuration` was
 * validated against the integration's `configurations.site`. It goes with its installation,
 * and with its site.
 */
@Entity('integration_site_installations')
export class IntegrationSiteInstallation {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_integration_site_installations',
  })
  installationId!: string;

  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_integration_site_installations',
  })
  @Index('IDX_integration_site_installations_site_id')
  siteId!: string;

  @ManyToOne(() => IntegrationInstallation, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'installation_id',
    foreignKeyConstraintName: 'FK_integration_site_installations_installation_id',
  })
  installation?: IntegrationInstallation;

  @ManyToOne(() => Site, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'site_id',
    foreignKeyConstraintName: 'FK_integration_site_installations_site_id',
  })
  site?: Site;

  /** The installation's organization, which is the site's. */
  @Index('IDX_integration_site_installations_organization_id')
  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organization_id',
    foreignKeyConstraintName: 'FK_integration_site_installations_organization_id',
  })
  organization?: Organization;

  @Column({ type: 'jsonb' })
  configuration!: Record<string, unknown>;

  @Column({ type: 'varchar', length: 512, array: true })
  externalIds!: string[];

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;
}
