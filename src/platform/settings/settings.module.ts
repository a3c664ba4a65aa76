import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InstanceSetting } from './instance-setting.entity';
import { InstanceSettings } from './instance-settings.service';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([InstanceSetting])],
  providers: [InstanceSettings],
  exports: [InstanceSettings],
})
export class SettingsModule {}
