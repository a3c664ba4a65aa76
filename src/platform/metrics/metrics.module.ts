import { Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';
import { Metrics } from './metrics.service';

/** GET /metrics and the registry behind it (see Metrics). */
@Module({
  controllers: [MetricsController],
  providers: [Metrics],
  exports: [Metrics],
})
export class MetricsModule {}
