import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { InstanceSetting } from './instance-setting.entity';

/** The `instance_settings` table: values of the instance, by key. */
@Injectable()
export class InstanceSettingsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Inserts `value` under `key` unless the key exists; whether it was inserted. */
  async insertIfAbsent(
    key: string,
    value: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const inserted = await manager
      .getRepository(InstanceSetting)
      .createQueryBuilder()
      .insert()
      .values({ key, value })
      .orIgnore()
      .returning(['key'])
      .execute();
    return (inserted.raw as unknown[]).length > 0;
  }
}
