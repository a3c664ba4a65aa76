import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { SamlProvider } from '../../../orgs/saml/entities/saml-provider.entity';

/**
 * An AuthnRequest the start URL sent to the identity provider, kept until its answer comes
 * back (its `InResponseTo`) or it expires. In the database, so that any process may receive
 * the answer.
 */
@Entity('saml_requests')
@Index('IDX_saml_requests_expires_at', ['expiresAt'])
export class SamlRequest {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_saml_requests' })
  providerId!: string;

  @ManyToOne(() => SamlProvider, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'provider_id', foreignKeyConstraintName: 'FK_saml_requests_provider_id' })
  provider?: SamlProvider;

  @PrimaryColumn({ type: 'varchar', length: 128, primaryKeyConstraintName: 'PK_saml_requests' })
  requestId!: string;

  /** What node-saml stored with it (the request's IssueInstant). */
  @Column({ type: 'varchar', length: 64 })
  value!: string;

  @Column({ type: 'timestamptz' })
  expiresAt!: Date;
}
