import { Injectable, OnModuleDestroy } from '@nestjs/common';
import workerd from 'workerd';
import { AppConfig } from '../../platform/config/app-config';
import type { Integration } from '../entities/integration.entity';
import { IntegrationsRepository } from '../integrations.repository';
import { OutboundRelay } from './outbound-relay';
import { TraceCollector } from './trace-collector';
import { type SandboxResponse, WorkerdSandbox } from './workerd-sandbox';

/** A runtime unused this long is stopped. */
const IDLE_MS = 10 * 60 * 1000;

interface Running {
  sandbox: Promise<WorkerdSandbox>;
  usedAt: number;
}

/**
 * The running scripts of integrations: one workerd sandbox per integration version, started on
 * its first call, kept for the next ones (at most INTEGRATION_RUNTIMES at once, the least
 * recently used stopped first; idle ones after ten minutes), started again after its limits
 * stopped it.
 */
@Injectable()
export class IntegrationRuntime implements OnModuleDestroy {
  private readonly running = new Map<string, Running>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly integrations: IntegrationsRepository,
    private readonly relay: OutboundRelay,
    private readonly traces: TraceCollector,
    private readonly config: AppConfig,
  ) {
    this.sweeper = setInterval(() => this.stopIdle(), 60_000);
    this.sweeper.unref();
  }

  /** A POST of `body` to the script of the integration's current version, at `path`. */
  async call(
    integration: Integration,
    path: string,
    body: Buffer,
    headers: Record<string, string>,
  ): Promise<SandboxResponse> {
    const sandbox = await this.sandboxOf(integration);
    return sandbox.dispatch(path, body, headers);
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
    for (const key of [...this.running.keys()]) this.stop(key);
  }

  private async sandboxOf(integration: Integration): Promise<WorkerdSandbox> {
    const key = `${integration.id}@${integration.version}`;
    const found = this.running.get(key);
    if (found) {
      const sandbox = await found.sandbox.catch(() => null);
      if (sandbox && !sandbox.alive) this.traces.unregister(sandbox.logsKey);
      if (sandbox?.alive) {
        // Most recently used last: the map's order is the eviction order.
        this.running.delete(key);
        this.running.set(key, { ...found, usedAt: Date.now() });
        return sandbox;
      }
      this.running.delete(key);
    }
    const starting = this.start(integration);
    this.running.set(key, { sandbox: starting, usedAt: Date.now() });
    starting.catch(() => this.running.delete(key));
    while (this.running.size > this.config.INTEGRATION_RUNTIMES) {
      this.stop(this.running.keys().next().value!);
    }
    return starting;
  }

  private async start(integration: Integration): Promise<WorkerdSandbox> {
    const script = await this.integrations.script(integration.id, integration.version);
    if (script === null) throw new Error(`The script of ${integration.name} is not kept.`);
    const logs = await this.traces.register();
    return WorkerdSandbox.start({
      workerdPath: workerd,
      script,
      outbound: await this.relay.address(),
      logs,
      limits: {
        timeoutMs: this.config.INTEGRATION_TIMEOUT_MS,
        memoryMb: this.config.INTEGRATION_MEMORY_MB,
      },
    });
  }

  private stop(key: string): void {
    const found = this.running.get(key);
    this.running.delete(key);
    void found?.sandbox
      .then((sandbox) => {
        sandbox.close();
        this.traces.unregister(sandbox.logsKey);
      })
      .catch(() => undefined);
  }

  private stopIdle(): void {
    const now = Date.now();
    for (const [key, { usedAt }] of this.running) if (now - usedAt > IDLE_MS) this.stop(key);
  }
}
