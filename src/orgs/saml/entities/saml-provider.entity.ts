import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { Role } from '../../../platform/policy/roles';
import { Organization } from '../../entities/organization.entity';
import { Team } from '../../teams/entities/team.entity';

/**
 * An identity provider members of the organization may sign in with. The identity-provider
 * values (entity id, certificate, sign-in URL) may be filled in later: until all three are
 * set the provider is `pending`.
 */
@Entity('saml_providers')
@Index('IDX_saml_providers_organization_id_created_at', ['organizationId', 'createdAt', 'id'])
export class SamlProvider {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_saml_providers' })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organization_id',
    foreignKeyConstraintName: 'FK_saml_providers_organization_id',
  })
  organization?: Organization;

  @Column({ type: 'varchar', length: 30 })
  label!: string;

  /** The identity provider's entity id (its issuer). */
  @Column({ type: 'varchar', length: 1024, nullable: true })
  entityId!: string | null;

  /** The identity provider's signing certificate, PEM. */
  @Column({ type: 'text', nullable: true })
  certificate!: string | null;

  /** Where the identity provider signs users in. */
  @Column({ type: 'varchar', length: 2048, nullable: true })
  ssoUrl!: string | null;

  /** Team that users signing in for the first time join; cleared when the team is deleted. */
  @Index('IDX_saml_providers_default_team_id')
  @Column({ type: 'varchar', length: 32, nullable: true })
  defaultTeamId!: string | null;

  @ManyToOne(() => Team, { onDelete: 'SET NULL' })
  @JoinColumn({
    name: 'default_team_id',
    foreignKeyConstraintName: 'FK_saml_providers_default_team_id',
  })
  defaultTeam?: Team | null;

  /** Role of users signing in for the first time; null makes them guests. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  defaultRole!: Role | null;

  /**
   * Bindery's own: sign-ins the identity provider starts (a response answering no request of
   * the start URL) are accepted. Off by default: only sign-ins started here are.
   */
  @Column({ type: 'boolean', default: false })
  idpInitiatedLogin!: boolean;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;
}
