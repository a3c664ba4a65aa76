import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Organization } from '../../../orgs/entities/organization.entity';
import { Space } from '../../../spaces/entities/space.entity';
import { IntegrationInstallation } from './integration-installation.entity';

/**
 * An organization's installation of an integration, installed on one of its spaces (GitBook's
 * `IntegrationSpaceInstallation`): one per installation and space. Its `configuration` was
 * validated against the integration's `configurations.space`. It goes with its installation,
 * and with its space.
 */
@Entity('integration_space_installations')
export class IntegrationSpaceInstallation {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_integration_space_installations',
  })
  installationId!: string;

  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_integration_space_installations',
  })
  @Index('IDX_integration_space_installations_space_id')
  spaceId!: string;

  @ManyToOne(() => IntegrationInstallation, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'installation_id',
    foreignKeyConstraintName: 'FK_integration_space_installations_installation_id',
  })
  installation?: IntegrationInstallation;

  @ManyToOne(() => Space, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'space_id',
    foreignKeyConstraintName: 'FK_integration_space_installations_space_id',
  })
  space?: Space;

  /** The installation's organization, which is the space's. */
  @Index('IDX_integration_space_installations_organization_id')
  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organization_id',
    foreignKeyConstraintName: 'FK_integration_space_installations_organization_id',
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
