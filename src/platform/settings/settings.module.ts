import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InstanceSetting } from './instance-setting.entity';
import { InstanceSecret } from './instance-secret';
import { InstanceSettingsRepository } from './instance-settings.repository';
import { InstanceSettings } from './instance-settings.service';
import { SealedText } from './sealed-text';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([InstanceSetting])],
  providers: [InstanceSettings, InstanceSettingsRepository, InstanceSecret, SealedText],
  exports: [InstanceSettings, InstanceSecret, SealedText],
})
export class SettingsModule {}
