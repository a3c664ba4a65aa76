import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { SamlProvider } from '../../../orgs/saml/entities/saml-provider.entity';

/**
 * An assertion a provider's identity provider sent that was used to sign in, remembered until
 * it expires (its NotOnOrAfter, plus the clock skew allowed) so that it is not used twice.
 */
@Entity('saml_assertions')
@Index('IDX_saml_assertions_expires_at', ['expiresAt'])
export class SamlAssertion {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_saml_assertions' })
  providerId!: string;

  @ManyToOne(() => SamlProvider, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'provider_id', foreignKeyConstraintName: 'FK_saml_assertions_provider_id' })
  provider?: SamlProvider;

  @PrimaryColumn({ type: 'varchar', length: 256, primaryKeyConstraintName: 'PK_saml_assertions' })
  assertionId!: string;

  @Column({ type: 'timestamptz' })
  expiresAt!: Date;
}
