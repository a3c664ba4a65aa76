import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/**
 * The embedding of a section of the search index (`page_sections`, same key) by `model`, and
 * the md5 of the text it was made from (SectionEmbeddings): a section whose text or model
 * changed is embedded again, the others never.
 */
@Entity('section_embeddings')
export class SectionEmbedding {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_section_embeddings',
  })
  spaceId!: string;

  // The spaces module's entity, by name: the engine imports no domain module (the key only).
  @ManyToOne('Space', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'space_id', foreignKeyConstraintName: 'FK_section_embeddings_space_id' })
  protected readonly space?: never;

  @PrimaryColumn({
    type: 'varchar',
    length: 64,
    primaryKeyConstraintName: 'PK_section_embeddings',
  })
  pageId!: string;

  @PrimaryColumn({
    type: 'varchar',
    length: 256,
    primaryKeyConstraintName: 'PK_section_embeddings',
  })
  sectionId!: string;

  @Column({ type: 'varchar', length: 200 })
  model!: string;

  @Column({ type: 'char', length: 32 })
  textHash!: string;

  @Column({ type: 'real', array: true })
  embedding!: number[];
}
