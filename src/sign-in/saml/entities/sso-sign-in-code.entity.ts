import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Organization } from '../../../orgs/entities/organization.entity';
import { SamlProvider } from '../../../orgs/saml/entities/saml-provider.entity';
import { User } from '../../../users/entities/user.entity';

/**
 * A one-time code a SAML sign-in sent to its `redirect_uri`, exchanged once for an API token
 * (`exchangeSsoSignInCode`). Only its SHA-256 is stored; the token is made at the exchange.
 */
@Entity('sso_sign_in_codes')
@Index('IDX_sso_sign_in_codes_expires_at', ['expiresAt'])
export class SsoSignInCode {
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'PK_sso_sign_in_codes' })
  codeHash!: string;

  @Index('IDX_sso_sign_in_codes_provider_id')
  @Column({ type: 'varchar', length: 32 })
  providerId!: string;

  @ManyToOne(() => SamlProvider, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'provider_id',
    foreignKeyConstraintName: 'FK_sso_sign_in_codes_provider_id',
  })
  provider?: SamlProvider;

  @Index('IDX_sso_sign_in_codes_organization_id')
  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organization_id',
    foreignKeyConstraintName: 'FK_sso_sign_in_codes_organization_id',
  })
  organization?: Organization;

  @Index('IDX_sso_sign_in_codes_user_id')
  @Column({ type: 'varchar', length: 32 })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_sso_sign_in_codes_user_id' })
  user?: User;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz' })
  expiresAt!: Date;
}
