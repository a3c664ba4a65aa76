import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { OpenAPISpec } from './openapi-spec.entity';

/**
 * A space with pages computed from a specification (the api-reference template): when a new
 * version of the specification is processed, these spaces' computed pages are regenerated.
 * A hint only: regeneration reads which pages are computed from the space's content, and drops
 * the row when none is left.
 */
@Entity('openapi_spec_spaces')
export class OpenAPISpecSpace {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_openapi_spec_spaces',
  })
  specId!: string;

  @ManyToOne(() => OpenAPISpec, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'spec_id', foreignKeyConstraintName: 'FK_openapi_spec_spaces_spec_id' })
  protected readonly spec?: never;

  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_openapi_spec_spaces',
  })
  @Index('IDX_openapi_spec_spaces_space_id')
  spaceId!: string;

  @ManyToOne('Space', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'space_id', foreignKeyConstraintName: 'FK_openapi_spec_spaces_space_id' })
  protected readonly space?: never;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;
}
