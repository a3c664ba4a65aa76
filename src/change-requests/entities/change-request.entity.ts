import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Revision } from '../../content-engine/entities/revision.entity';
import { ConversationIssuesCluster } from '../../conversations/entities/conversation-issues-cluster.entity';
import type { JSONDocument } from '../../content-engine/documents/document';
import { Organization } from '../../orgs/entities/organization.entity';
import { Space } from '../../spaces/entities/space.entity';
import { User } from '../../users/entities/user.entity';

export const CHANGE_REQUEST_STATUSES = ['draft', 'open', 'archived', 'merged'] as const;
export type ChangeRequestStatus = (typeof CHANGE_REQUEST_STATUSES)[number];

/**
 * A proposed edit to a space: numbered 1, 2, … within the space, with its own content
 * revision (`revision`), started from the primary revision of the time (`revisionInitial`).
 * `merged` is terminal. The space's change-request counts follow every insert and status
 * change, in the same transaction.
 */
@Entity('change_requests')
@Index('UQ_change_requests_space_id_number', ['spaceId', 'number'], { unique: true })
@Index('IDX_change_requests_space_id_status_number', ['spaceId', 'status', 'number'])
@Index('IDX_change_requests_organization_id_status_created_at', [
  'organizationId',
  'status',
  'createdAt',
  'id',
])
export class ChangeRequest {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_change_requests' })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  spaceId!: string;

  @ManyToOne(() => Space, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'space_id', foreignKeyConstraintName: 'FK_change_requests_space_id' })
  space?: Space;

  /** The space's organization, kept in step with it (a transfer rewrites it). */
  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organization_id',
    foreignKeyConstraintName: 'FK_change_requests_organization_id',
  })
  organization?: Organization;

  @Column({ type: 'integer' })
  number!: number;

  @Column({ type: 'varchar', length: 16 })
  status!: ChangeRequestStatus;

  @Column({ type: 'varchar', length: 100 })
  subject!: string;

  @Column({ type: 'jsonb', nullable: true })
  description!: JSONDocument | null;

  @Index('IDX_change_requests_created_by')
  @Column({ type: 'varchar', length: 32, nullable: true })
  createdBy!: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'created_by', foreignKeyConstraintName: 'FK_change_requests_created_by' })
  creator?: User | null;

  @Column({ type: 'varchar', length: 32 })
  revisionInitial!: string;

  @ManyToOne(() => Revision)
  @JoinColumn({
    name: 'revision_initial',
    foreignKeyConstraintName: 'FK_change_requests_revision_initial',
  })
  initial?: Revision;

  /** The change request's own content. */
  @Column({ type: 'varchar', length: 32 })
  revision!: string;

  @ManyToOne(() => Revision)
  @JoinColumn({ name: 'revision', foreignKeyConstraintName: 'FK_change_requests_revision' })
  current?: Revision;

  /** The primary revision it was last updated from. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  revisionMergedAncestor!: string | null;

  @ManyToOne(() => Revision)
  @JoinColumn({
    name: 'revision_merged_ancestor',
    foreignKeyConstraintName: 'FK_change_requests_revision_merged_ancestor',
  })
  mergedAncestor?: Revision | null;

  /** Once merged, the primary revision the merge made. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  revisionMerged!: string | null;

  @ManyToOne(() => Revision)
  @JoinColumn({
    name: 'revision_merged',
    foreignKeyConstraintName: 'FK_change_requests_revision_merged',
  })
  merged?: Revision | null;

  /** The conversations issues cluster it addresses (GitBook's `conversationsIssuesCluster`). */
  @Index('IDX_change_requests_conversations_issues_cluster_id', {
    where: `"conversations_issues_cluster_id" IS NOT NULL`,
  })
  @Column({ type: 'varchar', length: 32, nullable: true })
  conversationsIssuesClusterId!: string | null;

  @ManyToOne(() => ConversationIssuesCluster, { onDelete: 'SET NULL' })
  @JoinColumn({
    name: 'conversations_issues_cluster_id',
    foreignKeyConstraintName: 'FK_change_requests_conversations_issues_cluster_id',
  })
  conversationsIssuesCluster?: ConversationIssuesCluster | null;

  /** Open comments on it (src/comments keeps it true). */
  @Column({ type: 'integer', default: 0 })
  comments!: number;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;
}
