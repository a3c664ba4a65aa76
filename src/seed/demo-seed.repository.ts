import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** Arbitrary constant key of the advisory lock that lets one process seed at a time. */
const SEED_LOCK = 4_917_331;

/** No table of its own: the advisory lock under which the demo content is seeded. */
@Injectable()
export class DemoSeedRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Waits for the seeding lock, held until `manager`'s transaction ends. */
  async lockSeeding(manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK]);
  }
}
