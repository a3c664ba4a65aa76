import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { TokenScope } from '../../platform/auth/actor';
import { User } from './user.entity';

/**
 * An API token; only its SHA-256 is kept, the token itself is shown once. It stops working at
 * `expiresAt` (never when null), when deleted (revoked), or when its user is disabled. Its
 * `scope` limits what it reaches (null: all its user may do).
 */
@Entity('api_tokens')
@Index('IDX_api_tokens_user_id_created_at', ['userId', 'createdAt', 'id'])
export class ApiToken {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_api_tokens' })
  id!: string;

  @Index('IDX_api_tokens_user_id')
  @Column({ type: 'varchar', length: 32 })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_api_tokens_user_id' })
  user?: User;

  @Index('UQ_api_tokens_token_hash', { unique: true })
  @Column({ type: 'char', length: 64 })
  tokenHash!: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  label!: string | null;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  /** When a request last used it (to the minute: recorded at most once a minute). */
  @Column({ type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  @Column({ type: 'jsonb', nullable: true })
  scope!: TokenScope | null;
}
