import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Revision } from '../../../content-engine/entities/revision.entity';
import { User } from '../../../users/entities/user.entity';
import { ChangeRequest } from '../../entities/change-request.entity';
import { ChangeRequestReview } from './change-request-review.entity';

/**
 * A user asked to review a change request. Asking again renews the request (revision, asker,
 * time) and supersedes the user's earlier reviews. The user's reviews after the request answer
 * it (`reviewId`, the latest); the request itself stays until it is removed.
 */
@Entity('change_request_requested_reviewers')
@Index('IDX_change_request_requested_reviewers_listing', ['changeRequestId', 'createdAt', 'userId'])
@Index('IDX_change_request_requested_reviewers_user_id', ['userId'])
export class ChangeRequestRequestedReviewer {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_change_request_requested_reviewers',
  })
  changeRequestId!: string;

  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_change_request_requested_reviewers',
  })
  userId!: string;

  @ManyToOne(() => ChangeRequest, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'change_request_id',
    foreignKeyConstraintName: 'FK_change_request_requested_reviewers_change_request_id',
  })
  changeRequest?: ChangeRequest;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'user_id',
    foreignKeyConstraintName: 'FK_change_request_requested_reviewers_user_id',
  })
  user?: User;

  @Column({ type: 'varchar', length: 32 })
  requestedBy!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'requested_by',
    foreignKeyConstraintName: 'FK_change_request_requested_reviewers_requested_by',
  })
  requester?: User;

  /** The change request's head revision when the request was made. */
  @Column({ type: 'varchar', length: 32 })
  revision!: string;

  @ManyToOne(() => Revision)
  @JoinColumn({
    name: 'revision',
    foreignKeyConstraintName: 'FK_change_request_requested_reviewers_revision',
  })
  requestedRevision?: Revision;

  /** The user's latest review since the request; null while unanswered. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  reviewId!: string | null;

  @ManyToOne(() => ChangeRequestReview, { onDelete: 'SET NULL' })
  @JoinColumn({
    name: 'review_id',
    foreignKeyConstraintName: 'FK_change_request_requested_reviewers_review_id',
  })
  review?: ChangeRequestReview | null;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;
}
