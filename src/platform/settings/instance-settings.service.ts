import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { InstanceSetting } from './instance-setting.entity';
import { InstanceSettingsRepository } from './instance-settings.repository';

@Injectable()
export class InstanceSettings {
  constructor(
    @InjectRepository(InstanceSetting) private readonly settings: Repository<InstanceSetting>,
    private readonly settingsRepository: InstanceSettingsRepository,
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
    const created = await this.settingsRepository.insertIfAbsent(key, candidate);
    return { value: created ? candidate : ((await this.get(key)) as string), created };
  }
}
