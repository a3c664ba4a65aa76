import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Integration } from '../entities/integration.entity';
import type { ScriptLogLine } from '../runtime/trace-collector';

/** What the script answered to an event: its HTTP status, type and (the start of) its body. */
export interface IntegrationEventResponse {
  status: number;
  contentType: string | null;
  body: string;
}

/** One event sent to an integration's script (GitBook's `IntegrationEvent`) and its outcome. */
@Entity('integration_events')
@Index('IDX_integration_events_integration_id_created_at', ['integrationId', 'createdAt', 'id'])
export class IntegrationEvent {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_integration_events' })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  integrationId!: string;

  @ManyToOne(() => Integration, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'integration_id',
    foreignKeyConstraintName: 'FK_integration_events_integration_id',
  })
  integration?: Integration;

  @Column({ type: 'varchar', length: 32, nullable: true })
  installationId!: string | null;

  @Column({ type: 'varchar', length: 64 })
  type!: string;

  /** The event as sent (GitBook's `Event`). */
  @Column({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @Column({ type: 'varchar', length: 8 })
  status!: 'success' | 'failed';

  @Column({ type: 'jsonb', nullable: true })
  response!: IntegrationEventResponse | null;

  /** Why it failed, when the script did not answer (stopped by its limits, could not start). */
  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ type: 'integer' })
  durationMs!: number;

  /** What the script logged meanwhile, in order (added once its runtime reports them). */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  logs!: ScriptLogLine[];

  @Column({ type: 'timestamptz' })
  createdAt!: Date;
}
