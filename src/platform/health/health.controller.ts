import { Controller, Get, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { Access } from '../auth/access.decorator';
import { Lifecycle } from './lifecycle';

/** How long the database has to answer `SELECT 1` for readiness (liveness allows more). */
const READY_PING_TIMEOUT_MS = 1000;

/**
 * Liveness and readiness for load balancers and orchestrators. Liveness (GET /health) answers
 * 200 when the database answers, and keeps doing so while the process shuts down; readiness
 * (GET /health/ready) answers 503 while the application starts, once it has begun to shut down
 * (so that a load balancer stops sending it requests while those in flight finish), and when
 * the database does not answer `SELECT 1` within a second.
 */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly lifecycle: Lifecycle,
  ) {}

  @Get()
  @Access.public()
  @HealthCheck()
  check() {
    return this.health.check([() => this.database.pingCheck('database', { timeout: 3000 })]);
  }

  /** Terminus's body (status, info, error, details) with 200 or 503, unlike Bindery's errors. */
  @Get('ready')
  @Access.public()
  @HealthCheck()
  async ready(@Res({ passthrough: true }) response: Response) {
    try {
      return await this.readiness();
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      response.status(503);
      return error.getResponse();
    }
  }

  private readiness() {
    const state = this.lifecycle.state;
    const lifecycle = () => {
      const indicator = this.indicators.check('lifecycle');
      return state === 'ready' ? indicator.up({ state }) : indicator.down({ state });
    };
    // Not ready anyway: the database is not asked.
    if (state !== 'ready') return this.health.check([lifecycle]);
    return this.health.check([
      lifecycle,
      () => this.database.pingCheck('database', { timeout: READY_PING_TIMEOUT_MS }),
    ]);
  }
}
