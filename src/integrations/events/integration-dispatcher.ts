import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { OrganizationsRepository } from '../../orgs/organizations.repository';
import { Clock } from '../../platform/clock/clock';
import { IntegrationTokens } from '../../platform/auth/integration-tokens';
import { AppConfig } from '../../platform/config/app-config';
import { newId } from '../../platform/ids/ids';
import { OutboundHttp, OutboundHttpError } from '../../platform/outbound-http';
import { InstanceSecret } from '../../platform/settings/instance-secret';
import { SealedText } from '../../platform/settings/sealed-text';
import type { Integration } from '../entities/integration.entity';
import { IntegrationsPresenter } from '../integrations.presenter';
import { SECRETS_PURPOSE } from '../integrations.service';
import { IntegrationRuntime } from '../runtime/integration-runtime';
import { EVENT_HEADER, type ScriptLogLine, TraceCollector } from '../runtime/trace-collector';
import { IntegrationEvent } from './integration-event.entity';
import { IntegrationEventsRepository } from './integration-events.repository';

/** How much of a script's answer an event keeps for its developers. */
const KEPT_RESPONSE_CHARS = 64 * 1024;
const SIGNING_PURPOSE = 'integration-signing';

/** An event for an integration's script: GitBook's `Event` without its id. */
export type IntegrationEventInput = Record<string, unknown> & { type: string };

export interface DispatchOptions {
  /** The installation the event is about, recorded with it. */
  installationId?: string | null;
  /** The organization the event comes from: development mode sends only the owner's by default. */
  organizationId?: string | null;
  /** Parts of GitBook's `IntegrationEnvironment` the caller knows (installation, tokens). */
  environment?: Record<string, unknown>;
  /** The body of an external request (`fetch` events). */
  fetchBody?: Buffer;
}

export interface DispatchResult {
  eventId: string;
  /** The script's answer; absent when it did not answer (`error` says why). */
  response?: { status: number; headers: Record<string, string>; body: Buffer };
  error?: string;
}

/**
 * Sends events to integrations as GitBook does: a POST to the script's `/v1` with a form of the
 * `event`, the `environment` (API endpoint, tokens, the integration, its installation, its
 * secrets and signing secrets) and, for `fetch` events, the `fetch-body`; to the development
 * tunnel instead while development mode is on. Each event is recorded with the answer.
 */
@Injectable()
export class IntegrationDispatcher implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(IntegrationDispatcher.name);
  /** Events sent and not yet recorded: their logs wait for them. */
  private readonly recording = new Map<string, Promise<void>>();
  private stopListening: (() => void) | null = null;

  constructor(
    private readonly events: IntegrationEventsRepository,
    private readonly runtime: IntegrationRuntime,
    private readonly outbound: OutboundHttp,
    private readonly presenter: IntegrationsPresenter,
    private readonly organizations: OrganizationsRepository,
    private readonly sealed: SealedText,
    private readonly secret: InstanceSecret,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly tokens: IntegrationTokens,
    private readonly traces: TraceCollector,
  ) {}

  onModuleInit(): void {
    this.stopListening = this.traces.onLogs((eventId, lines) => void this.addLogs(eventId, lines));
  }

  onModuleDestroy(): void {
    this.stopListening?.();
  }

  async dispatch(
    integration: Integration,
    input: IntegrationEventInput,
    options: DispatchOptions = {},
  ): Promise<DispatchResult> {
    const eventId = newId();
    const payload = { eventId, ...input };
    const form = new FormData();
    form.set('event', JSON.stringify(payload));
    form.set('environment', JSON.stringify(await this.environment(integration, options)));
    if (options.fetchBody) form.set('fetch-body', new Blob([options.fetchBody]));
    // The multipart body and its boundary, as fetch would send them.
    const encoded = new Request('http://integration/v1', { method: 'POST', body: form });
    const body = Buffer.from(await encoded.arrayBuffer());
    const headers = { 'content-type': encoded.headers.get('content-type')! };

    const createdAt = this.clock.now();
    const startedAt = Date.now();
    let recorded!: () => void;
    this.recording.set(eventId, new Promise<void>((resolve) => (recorded = resolve)));
    let result: DispatchResult;
    try {
      let response: DispatchResult['response'] | null = null;
      if (this.inDevelopment(integration, options.organizationId)) {
        // `gitbook dev` does not say when it stops: a tunnel that no longer answers sends the
        // event to the published script, as before development mode.
        response = await this.toTunnel(integration.devTunnelUrl!, body, headers).catch(
          (error: unknown) => {
            if (!(error instanceof OutboundHttpError)) throw error;
            this.logger.log(`${integration.name}'s tunnel did not answer: ${error.message}`);
            return null;
          },
        );
      }
      response ??= await this.runtime.call(integration, '/v1', body, {
        ...headers,
        [EVENT_HEADER]: eventId,
      });
      result = { eventId, response };
    } catch (error) {
      result = { eventId, error: error instanceof Error ? error.message : String(error) };
    }
    try {
      await this.record(integration, payload, options, result, createdAt, Date.now() - startedAt);
    } finally {
      recorded();
      this.recording.delete(eventId);
    }
    return result;
  }

  private inDevelopment(integration: Integration, organizationId?: string | null): boolean {
    if (!integration.devTunnelUrl) return false;
    return integration.devAll || !organizationId || organizationId === integration.organizationId;
  }

  private async toTunnel(
    tunnelUrl: string,
    body: Buffer,
    headers: Record<string, string>,
  ): Promise<NonNullable<DispatchResult['response']>> {
    const response = await this.outbound.relay(new URL('/v1', tunnelUrl).href, {
      method: 'POST',
      headers,
      body,
      timeoutMs: this.config.INTEGRATION_TIMEOUT_MS,
    });
    return { status: response.status, headers: response.headers, body: response.body };
  }

  /** GitBook's `IntegrationEnvironment` for an event of `integration`. */
  private async environment(
    integration: Integration,
    options: DispatchOptions,
  ): Promise<Record<string, unknown>> {
    const owner = await this.organizations.findById(integration.organizationId);
    const secrets = integration.secrets
      ? (JSON.parse(this.sealed.unseal(SECRETS_PURPOSE, integration.secrets)) as Record<
          string,
          string
        >)
      : {};
    const apiTokens = this.apiTokens(integration, options);
    return {
      apiEndpoint: this.config.publicUrl,
      apiTokens,
      // What @gitbook/runtime before 0.23 reads: the installation's token, else the integration's.
      authToken: apiTokens.installation ?? apiTokens.integration,
      integration: this.presenter.present({ integration, owner: owner!, admin: false }),
      secrets,
      signingSecrets: { integration: this.signingSecret(integration.id) },
      ...options.environment,
    };
  }

  /**
   * The tokens the script calls the API with: the integration's own, and the installation's
   * when the event is about one (limited to the scopes the integration holds now).
   */
  private apiTokens(
    integration: Integration,
    { installationId, organizationId }: DispatchOptions,
  ): { integration: string; installation?: string } {
    const tokens: { integration: string; installation?: string } = {
      integration: this.tokens.sign({ kind: 'integration', integration: integration.id }).token,
    };
    if (installationId && organizationId) {
      tokens.installation = this.tokens.sign({
        kind: 'installation',
        integration: integration.id,
        installation: installationId,
        organization: organizationId,
        scopes: [...integration.scopes],
      }).token;
    }
    return tokens;
  }

  /** What the script logged handling an event, once the event is recorded. */
  private async addLogs(eventId: string, lines: ScriptLogLine[]): Promise<void> {
    await this.recording.get(eventId);
    try {
      await this.events.appendLogs(eventId, lines);
    } catch (error) {
      this.logger.warn(`could not record the logs of event ${eventId}: ${String(error)}`);
    }
  }

  /** A secret of the integration (or of one of its installations) for it to sign with. */
  signingSecret(id: string): string {
    return createHmac('sha256', this.secret.signingKey(SIGNING_PURPOSE)).update(id).digest('hex');
  }

  private async record(
    integration: Integration,
    payload: Record<string, unknown> & { type: string },
    options: DispatchOptions,
    result: DispatchResult,
    createdAt: Date,
    durationMs: number,
  ): Promise<void> {
    const response = result.response;
    const succeeded = response !== undefined && response.status >= 200 && response.status < 300;
    const event = Object.assign(new IntegrationEvent(), {
      id: result.eventId,
      integrationId: integration.id,
      installationId: options.installationId ?? null,
      type: payload.type.slice(0, 64),
      payload,
      status: succeeded ? 'success' : 'failed',
      response: response
        ? {
            status: response.status,
            contentType: response.headers['content-type'] ?? null,
            body: response.body.toString('utf8').slice(0, KEPT_RESPONSE_CHARS),
          }
        : null,
      error: result.error ?? null,
      durationMs,
      createdAt,
      logs: [],
    } satisfies IntegrationEvent);
    try {
      await this.events.insert(event);
    } catch (error) {
      // The integration may have been unpublished meanwhile: nothing to record it for.
      this.logger.warn(
        `could not record event ${event.id} of ${integration.name}: ${String(error)}`,
      );
    }
  }
}
