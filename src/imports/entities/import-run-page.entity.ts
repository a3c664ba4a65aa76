import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ImportRun } from './import-run.entity';

/** A page an import run makes (GitBook's `ContentImportRun.pages`), in tree order. */
@Entity('import_run_pages')
export class ImportRunPage {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_import_run_pages' })
  runId!: string;

  @ManyToOne(() => ImportRun, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'run_id', foreignKeyConstraintName: 'FK_import_run_pages_run_id' })
  run?: ImportRun;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'PK_import_run_pages' })
  position!: number;

  /** The page's id in the change request. */
  @Column({ type: 'varchar', length: 32 })
  pageId!: string;

  /** The URL (or the uploaded file and path) it came from. */
  @Column({ type: 'text', nullable: true })
  sourceUrl!: string | null;

  /** `folder`: a page made only to hold others (a group, or a folder without a readme). */
  @Column({ type: 'varchar', length: 8 })
  type!: 'page' | 'folder';

  /** `complete` once written into the change request. */
  @Column({ type: 'varchar', length: 8 })
  status!: 'complete' | 'pending';
}
