import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Organization } from '../../orgs/entities/organization.entity';

/**
 * Issues of an organization's conversations that say the same thing, grouped by the analysis.
 * `issues`, `conversations` and `sources` are kept by the analysis that changes the membership,
 * so lists sort and page on them; the weekly pulse is counted when read (it moves with time).
 */
@Entity('conversation_issue_clusters')
@Index('IDX_conversation_issue_clusters_organization_id_updated_at', [
  'organizationId',
  'updatedAt',
  'id',
])
@Index('IDX_conversation_issue_clusters_organization_id_issues', ['organizationId', 'issues', 'id'])
@Index('IDX_conversation_issue_clusters_organization_id_conversations', [
  'organizationId',
  'conversations',
  'id',
])
export class ConversationIssuesCluster {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_conversation_issue_clusters',
  })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organization_id',
    foreignKeyConstraintName: 'FK_conversation_issue_clusters_organization_id',
  })
  organization?: Organization;

  @Column({ type: 'varchar', length: 512 })
  label!: string;

  @Column({ type: 'text' })
  summary!: string;

  /** A GitBook icon name. */
  @Column({ type: 'varchar', length: 50 })
  icon!: string;

  @Column({ type: 'integer', default: 0 })
  issues!: number;

  @Column({ type: 'integer', default: 0 })
  conversations!: number;

  /** Issues per conversation source. */
  @Column({ type: 'jsonb', default: {} })
  sources!: Record<string, number>;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;
}
