import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Organization } from '../../orgs/entities/organization.entity';
import { Conversation } from './conversation.entity';
import { ConversationIssuesCluster } from './conversation-issues-cluster.entity';

/** Stem → occurrences in an issue's text: what the clustering compares. */
export type TermCounts = Record<string, number>;

/**
 * Something a user could not do or asked about, extracted from one conversation. It is in a
 * cluster once the analysis finds similar issues (`clusterId` null until then). Every analysis
 * clusters the organization's issues again, so the clusters depend only on the issues, not on
 * the order they came in; a cluster keeps its id while it keeps most of its issues.
 */
@Entity('conversation_issues')
@Index('IDX_conversation_issues_organization_id_created_at', ['organizationId', 'createdAt', 'id'])
@Index('IDX_conversation_issues_cluster_id_created_at', ['clusterId', 'createdAt', 'id'])
@Index('IDX_conversation_issues_conversation_id_created_at', ['conversationId', 'createdAt', 'id'])
export class ConversationIssue {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_conversation_issues',
  })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organization_id',
    foreignKeyConstraintName: 'FK_conversation_issues_organization_id',
  })
  organization?: Organization;

  @Column({ type: 'varchar', length: 32 })
  conversationId!: string;

  @ManyToOne(() => Conversation, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'conversation_id',
    foreignKeyConstraintName: 'FK_conversation_issues_conversation_id',
  })
  conversation?: Conversation;

  @Column({ type: 'varchar', length: 32, nullable: true })
  clusterId!: string | null;

  @ManyToOne(() => ConversationIssuesCluster, { onDelete: 'SET NULL' })
  @JoinColumn({
    name: 'cluster_id',
    foreignKeyConstraintName: 'FK_conversation_issues_cluster_id',
  })
  cluster?: ConversationIssuesCluster | null;

  @Column({ type: 'varchar', length: 512 })
  title!: string;

  @Column({ type: 'text' })
  summary!: string;

  /** The analysis's own data (read there with SQL); never part of an answer, so not selected. */
  @Column({ type: 'jsonb', select: false })
  terms!: TermCounts;

  /**
   * The issue's embedding (AI_EMBEDDING_MODEL, single precision), made once; null without one.
   * Like `terms`, the analysis's own data.
   */
  @Column({ type: 'real', array: true, nullable: true, select: false })
  embedding!: number[] | null;

  /** The model that made `embedding`: a vector of another model is made again. */
  @Column({ type: 'varchar', length: 200, nullable: true, select: false })
  embeddingModel!: string | null;

  /** When the conversation happened: what the weekly pulse counts by. */
  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  /** When its conversation was ingested. */
  @Column({ type: 'timestamptz' })
  ingestedAt!: Date;
}
