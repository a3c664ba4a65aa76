import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Organization } from '../../orgs/entities/organization.entity';

const KEY = { primaryKeyConstraintName: 'PK_ai_usage_counters' } as const;

/**
 * Tokens an organization's answers used on one UTC day for one feature, as the model reported
 * them (or estimated at 4 characters a token when it did not). Nothing of a question is kept.
 */
@Entity('ai_usage_counters')
export class AiUsageCounter {
  @PrimaryColumn({ type: 'varchar', length: 32, ...KEY })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organization_id',
    foreignKeyConstraintName: 'FK_ai_usage_counters_organization_id',
  })
  organization?: Organization;

  /** The UTC day, `YYYY-MM-DD`. */
  @PrimaryColumn({ type: 'date', ...KEY })
  day!: string;

  /** What used them: `site-ask`, `organization-ask` or `recommended-questions`. */
  @PrimaryColumn({ type: 'varchar', length: 32, ...KEY })
  feature!: string;

  /** bigint, handed back as a string. */
  @Column({ type: 'bigint' })
  tokens!: string;
}
