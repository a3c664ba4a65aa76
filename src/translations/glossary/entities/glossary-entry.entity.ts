import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Organization } from '../../../orgs/entities/organization.entity';
import type { TranslationLanguage } from '../../../spaces/languages';

/**
 * An entry of the organization's translation glossary (GitBook's `GlossaryEntry`): one term in
 * several languages. Every translation of the organization from one of those languages into
 * another uses it.
 */
@Entity('translation_glossary_entries')
@Index('IDX_translation_glossary_entries_organization_id_created_at', [
  'organizationId',
  'createdAt',
  'id',
])
export class GlossaryEntry {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_translation_glossary_entries',
  })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'organization_id',
    foreignKeyConstraintName: 'FK_translation_glossary_entries_organization_id',
  })
  organization?: Organization;

  /** The term by language code. */
  @Column({ type: 'jsonb' })
  translations!: Partial<Record<TranslationLanguage, string>>;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;
}
