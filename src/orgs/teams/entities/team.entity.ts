import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Organization } from '../../entities/organization.entity';

@Entity('teams')
@Index('IDX_teams_organization_id_created_at', ['organizationId', 'createdAt', 'id'])
export class Team {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_teams' })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'FK_teams_organization_id' })
  organization?: Organization;

  @Column({ type: 'varchar', length: 64 })
  title!: string;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;
}
