import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity('users')
export class User {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_users' })
  id!: string;

  /** Stored lower-cased, so uniqueness is case-insensitive. */
  @Index('UQ_users_email', { unique: true })
  @Column({ type: 'varchar', length: 320 })
  email!: string;

  @Column({ type: 'varchar', length: 255 })
  displayName!: string;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  photoUrl!: string | null;

  /** A disabled user's tokens stop working at once. */
  @Column({ type: 'boolean', default: false })
  disabled!: boolean;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;

  /**
   * When the instance administrator deleted the user: the row stays so that what it wrote keeps
   * its author; its address is anonymized, its tokens and memberships are gone. Optional in the
   * type: the authenticated user (`ActorUser`) is read without it.
   */
  @Column({ type: 'timestamptz', nullable: true })
  deletedAt?: Date | null;
}
