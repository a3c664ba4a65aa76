import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { InstanceSetting } from './instance-setting.entity';

@Injectable()
export class InstanceSettings {
  constructor(
    @InjectRepository(InstanceSetting) private readonly settings: Repository<InstanceSetting>,
  ) {}

  async get(key: string): Promise<string | undefined> {
    return (await this.settings.findOneBy({ key }))?.value;
  }

  async remove(key: string): Promise<void> {
    await this.settings.delete({ key });
  }

  /**
   * The stored value, or `create()`'s stored on first use. Concurrent first starts agree on
   * one value: the insert does nothing when another process got there first.
   */
  async getOrCreate(
    key: string,
    create: () => string,
  ): Promise<{ value: string; created: boolean }> {
    const candidate = create();
    const inserted = await this.settings
      .createQueryBuilder()
      .insert()
      .values({ key, value: candidate })
      .orIgnore()
      .returning(['key'])
      .execute();
    const created = (inserted.raw as unknown[]).length > 0;
    return { value: created ? candidate : ((await this.get(key)) as string), created };
  }
}
