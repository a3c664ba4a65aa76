import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An immutable piece of content (a tree, a page, a document, file metadata), keyed by the
 * SHA-256 of its canonical JSON and written once: equal content is stored once, whichever
 * spaces and revisions point at it.
 */
@Entity('content_objects')
export class ContentObject {
  @PrimaryColumn({ type: 'char', length: 64, primaryKeyConstraintName: 'PK_content_objects' })
  hash!: string;

  @Column({ type: 'varchar', length: 16 })
  kind!: string;

  @Column({ type: 'jsonb' })
  data!: object;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;
}
