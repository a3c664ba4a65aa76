import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { User } from '../../../users/entities/user.entity';
import { ChangeRequest } from '../../entities/change-request.entity';

export const CONTRIBUTION_TYPES = ['edit', 'comment'] as const;
export type ContributionType = (typeof CONTRIBUTION_TYPES)[number];

/** How many times a user edited (or commented on) a change request, and when last. */
@Entity('change_request_contributors')
@Index('IDX_change_request_contributors_listing', [
  'changeRequestId',
  'updatedAt',
  'userId',
  'actionType',
])
@Index('IDX_change_request_contributors_user_id', ['userId'])
export class ChangeRequestContributor {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_change_request_contributors',
  })
  changeRequestId!: string;

  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_change_request_contributors',
  })
  userId!: string;

  @PrimaryColumn({
    type: 'varchar',
    length: 16,
    primaryKeyConstraintName: 'PK_change_request_contributors',
  })
  actionType!: ContributionType;

  @ManyToOne(() => ChangeRequest, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'change_request_id',
    foreignKeyConstraintName: 'FK_change_request_contributors_change_request_id',
  })
  changeRequest?: ChangeRequest;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'user_id',
    foreignKeyConstraintName: 'FK_change_request_contributors_user_id',
  })
  user?: User;

  @Column({ type: 'integer' })
  count!: number;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;
}
