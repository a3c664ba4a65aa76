import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/** An ancestor of a page, top first, as search hits show it. */
export interface PageAncestor {
  title: string;
}

/**
 * A section of a page of a space's primary revision, for full-text search: the page's lead
 * (section '') or what follows one of its headings. Written by the SearchIndexer only.
 */
@Entity('page_sections')
export class PageSection {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_page_sections' })
  spaceId!: string;

  // The spaces module's entity, by name: the engine imports no domain module (the key only).
  @ManyToOne('Space', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'space_id', foreignKeyConstraintName: 'FK_page_sections_space_id' })
  protected readonly space?: never;

  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'PK_page_sections' })
  pageId!: string;

  /** The heading's anchor; '' for the page's lead. */
  @PrimaryColumn({ type: 'varchar', length: 256, primaryKeyConstraintName: 'PK_page_sections' })
  sectionId!: string;

  @Column({ type: 'char', length: 64, nullable: true })
  documentHash!: string | null;

  @Column({ type: 'text' })
  pageTitle!: string;

  @Column({ type: 'text' })
  pagePath!: string;

  @Column({ type: 'text' })
  sectionTitle!: string;

  @Column({ type: 'text' })
  body!: string;

  // A GIN index, which TypeORM cannot describe: the migration creates it, the check leaves it.
  @Index('IDX_page_sections_tsv', { synchronize: false })
  @Column({ type: 'tsvector', select: false })
  tsv!: string;

  @Column({ type: 'jsonb' })
  ancestors!: PageAncestor[];

  /** Order of the section in its page (0: the lead). */
  @Column({ type: 'integer' })
  position!: number;

  @Column({ type: 'timestamptz' })
  indexedAt!: Date;
}
