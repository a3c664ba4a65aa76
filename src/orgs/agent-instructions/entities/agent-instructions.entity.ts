import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { User } from '../../../users/entities/user.entity';
import { Organization } from '../../entities/organization.entity';
import type { JSONDocument } from '../../../content-engine/documents/document';

/** An organization's instructions for the Docs agent; no row until they are first written. */
@Entity('agent_instructions')
export class AgentInstructions {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_agent_instructions',
  })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organization_id',
    foreignKeyConstraintName: 'FK_agent_instructions_organization_id',
  })
  organization?: Organization;

  @Column({ type: 'jsonb' })
  instructions!: JSONDocument;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;

  /** The user who wrote them last; null once that user is deleted. */
  @Index('IDX_agent_instructions_updated_by')
  @Column({ type: 'varchar', length: 32, nullable: true })
  updatedBy!: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'updated_by', foreignKeyConstraintName: 'FK_agent_instructions_updated_by' })
  updater?: User | null;
}
