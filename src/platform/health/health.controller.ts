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

/** What liveness answers: the shape of terminus's answers, about the process alone. */
const LIVE = Object.freeze({
  status: 'ok',
  info: { process: { status: 'up' } },
  error: {},
  details: { process: { status: 'up' } },
});

/**
 * Liveness and readiness for load balancers and orchestrators, as Kubernetes means them.
 * Liveness (GET /health) is the process: 200 whenever its event loop runs, the database up or
 * not, and while it shuts down; restarting a process does not bring a database back, and
 * restarting every replica during a database outage would only add to it. Readiness
 * (GET /health/ready) is whether to send it requests: 503 while the application starts (its
 * migrations run before it listens), once it has begun to shut down (so that a load balancer
 * stops sending it requests while those in flight finish), and while the database does not
 * answer `SELECT 1` within a second; 200 again at the first answer.
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
  live() {
    return LIVE;
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
