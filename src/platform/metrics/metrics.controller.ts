import { Controller, Get, Headers, NotFoundException, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Access } from '../auth/access.decorator';
import { AppConfig } from '../config/app-config';
import { unauthenticated } from '../errors/domain-error';
import { Metrics } from './metrics.service';
import { bearerMatches } from './metrics-token';

/**
 * Prometheus metrics, outside /v1 and the API document. Public for the access guard (no API
 * token): off (404, as an unknown route) unless METRICS_ENABLED or METRICS_TOKEN; with
 * METRICS_TOKEN, only a scrape sending it as its bearer token gets them.
 */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Access.public()
  async scrape(
    @Headers('authorization') authorization: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    if (!this.config.metricsEnabled) throw new NotFoundException('Cannot GET /metrics');
    const token = this.config.METRICS_TOKEN;
    if (token !== undefined && !bearerMatches(authorization, token)) {
      response.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      throw unauthenticated('GET /metrics needs the METRICS_TOKEN as its bearer token.');
    }
    response.setHeader('Content-Type', this.metrics.contentType);
    response.setHeader('Cache-Control', 'no-store');
    return this.metrics.render();
  }
}
