import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Instance-wide values Bindery generates once and keeps (hashed admin token, signing secret). */
@Entity('instance_settings')
export class InstanceSetting {
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'PK_instance_settings' })
  key!: string;

  @Column({ type: 'text' })
  value!: string;
}
