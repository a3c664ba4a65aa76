import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Integration } from './integration.entity';

/** The script (the bundle `gitbook publish` built) of one published version of an integration. */
@Entity('integration_versions')
export class IntegrationVersion {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_integration_versions',
  })
  integrationId!: string;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'PK_integration_versions' })
  version!: number;

  @ManyToOne(() => Integration, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'integration_id',
    foreignKeyConstraintName: 'FK_integration_versions_integration_id',
  })
  integration?: Integration;

  @Column({ type: 'text' })
  script!: string;

  /** The user who published it; null for the instance administrator. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  publishedBy!: string | null;

  @Column({ type: 'timestamptz' })
  publishedAt!: Date;
}
