import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Organization } from '../../orgs/entities/organization.entity';

/** GitBook's `ConversationPartMessage` roles. */
export const CONVERSATION_ROLES = ['user', 'assistant', 'team-member'] as const;
export type ConversationRole = (typeof CONVERSATION_ROLES)[number];

/** GitBook's `ConversationPart` (only messages exist). */
export interface ConversationPart {
  type: 'message';
  role: ConversationRole;
  body: string;
}

/**
 * A conversation ingested into an organization: a support thread, a chat, an email exchange.
 * Known to its source by `externalId` (unique per organization and source, so ingesting it again
 * updates it). `analysisRevision` counts changes of content, so an analysis that read an older
 * content does not record its outcome over the newer one; `processedAt` is null until analysed.
 */
@Entity('conversations')
@Index(
  'UQ_conversations_organization_id_source_external_id',
  ['organizationId', 'source', 'externalId'],
  { unique: true },
)
@Index('IDX_conversations_organization_id_created_at', ['organizationId', 'createdAt', 'id'])
@Index('IDX_conversations_organization_id_source_created_at', [
  'organizationId',
  'source',
  'createdAt',
  'id',
])
@Index('IDX_conversations_unprocessed', ['organizationId', 'createdAt', 'id'], {
  where: `"processed_at" IS NULL`,
})
export class Conversation {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_conversations' })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organization_id',
    foreignKeyConstraintName: 'FK_conversations_organization_id',
  })
  organization?: Organization;

  /** GitBook's `ConversationSource`: `email` or `integration:<name>:<id>`. */
  @Column({ type: 'varchar', length: 300 })
  source!: string;

  /** The id the source gave (GitBook's `ConversationInput.id`). */
  @Column({ type: 'varchar', length: 255 })
  externalId!: string;

  @Column({ type: 'varchar', length: 512, nullable: true })
  subject!: string | null;

  /** Not read unless asked for (`addSelect`): only a single conversation's answer shows them. */
  @Column({ type: 'jsonb', select: false })
  parts!: ConversationPart[];

  @Column({ type: 'text', nullable: true })
  metadataUrl!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  metadataAttributes!: Record<string, string> | null;

  /** `metadata.createdAt` as given; `createdAt` falls back to the first ingestion. */
  @Column({ type: 'timestamptz', nullable: true })
  metadataCreatedAt!: Date | null;

  /** SHA-256 of what the analysis reads (subject and parts): unchanged content is not redone. */
  @Column({ type: 'char', length: 64 })
  contentHash!: string;

  @Column({ type: 'integer', default: 1 })
  analysisRevision!: number;

  /** When the conversation happened: `metadata.createdAt`, else its first ingestion. */
  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  /** Its first ingestion. */
  @Column({ type: 'timestamptz' })
  ingestedAt!: Date;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  processedAt!: Date | null;
}
