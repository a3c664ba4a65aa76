import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Revision } from '../../../content-engine/entities/revision.entity';
import type { JSONDocument } from '../../../content-engine/documents/document';
import { User } from '../../../users/entities/user.entity';
import { ChangeRequest } from '../../entities/change-request.entity';

export const REVIEW_STATUSES = ['approved', 'changes-requested'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/**
 * A reviewer's verdict on a change request, made on its head revision of the time. Rows are
 * never deleted (they go with their change request); `superseded` is set once the same reviewer
 * submits a newer review or is asked to review again, and never cleared.
 */
@Entity('change_request_reviews')
@Index('IDX_change_request_reviews_change_request_id_created_at', [
  'changeRequestId',
  'createdAt',
  'id',
])
@Index('IDX_change_request_reviews_change_request_id_reviewer_id', [
  'changeRequestId',
  'reviewerId',
])
export class ChangeRequestReview {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_change_request_reviews',
  })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  changeRequestId!: string;

  @ManyToOne(() => ChangeRequest, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'change_request_id',
    foreignKeyConstraintName: 'FK_change_request_reviews_change_request_id',
  })
  changeRequest?: ChangeRequest;

  @Column({ type: 'varchar', length: 32 })
  reviewerId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'reviewer_id',
    foreignKeyConstraintName: 'FK_change_request_reviews_reviewer_id',
  })
  reviewer?: User;

  /** Who asked the reviewer for it; null when the review was not requested. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  requestedBy!: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({
    name: 'requested_by',
    foreignKeyConstraintName: 'FK_change_request_reviews_requested_by',
  })
  requester?: User | null;

  @Column({ type: 'varchar', length: 20 })
  status!: ReviewStatus;

  /** The change request's head revision the review was made on. */
  @Column({ type: 'varchar', length: 32 })
  revision!: string;

  @ManyToOne(() => Revision)
  @JoinColumn({
    name: 'revision',
    foreignKeyConstraintName: 'FK_change_request_reviews_revision',
  })
  reviewedRevision?: Revision;

  /** Id of the review's comment, presented as a GitBook Comment; null without a comment. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  commentId!: string | null;

  /** The comment's body; null without a comment. */
  @Column({ type: 'jsonb', nullable: true })
  comment!: JSONDocument | null;

  /** A newer review by the same reviewer, or a new request to review, came after it. */
  @Column({ type: 'boolean', default: false })
  superseded!: boolean;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;
}
