import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { ApiInformationController } from './api-information.controller';
import { HealthController } from './health.controller';
import { Lifecycle } from './lifecycle';

@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController, ApiInformationController],
  providers: [Lifecycle],
  exports: [Lifecycle],
})
export class HealthModule {}
