import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isIP } from 'node:net';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../platform/clock/clock';
import { AppConfig } from '../platform/config/app-config';
import { invalidInput, notFound } from '../platform/errors/domain-error';
import { EventOutbox } from '../platform/events/event-outbox';
import { newId } from '../platform/ids/ids';
import { isPublicAddress } from '../platform/outbound-http';
import type { Page } from '../platform/pagination/page';
import type { PageQueryDto } from '../platform/pagination/page-query.dto';
import { PolicyService } from '../platform/policy/policy.service';
import { SealedText } from '../platform/settings/sealed-text';
import { WebhookDeliveriesRepository } from './deliveries/webhook-deliveries.repository';
import { DeliveryJobs } from './deliveries/delivery-jobs';
import { SECRET_PURPOSE } from './deliveries/webhook-sender';
import type { CreateWebhookDto, ListDeliveriesQueryDto, UpdateWebhookDto } from './dto/webhook.dto';
import type { WebhookDeliveryAttempt } from './entities/webhook-delivery-attempt.entity';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { Webhook } from './entities/webhook.entity';
import { isWebhookSecret, newWebhookSecret } from './webhook-secrets';
import { WebhooksRepository } from './webhooks.repository';

/** How long the secret before a rotation keeps signing deliveries. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** A webhook with its secret in clear: what creation and rotation answer. */
export interface WebhookWithSecret {
  webhook: Webhook;
  secret: string;
}

/** A delivery with its body and attempts. */
export interface DeliveryDetail {
  delivery: WebhookDelivery;
  payload: Record<string, unknown>;
  attempts: WebhookDeliveryAttempt[];
}

/** An organization's webhooks, and their deliveries (the routes' use cases). */
@Injectable()
export class WebhooksService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly webhooks: WebhooksRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly outbox: EventOutbox,
    private readonly deliveryJobs: DeliveryJobs,
    private readonly policy: PolicyService,
    private readonly sealed: SealedText,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async create(
    userId: string,
    organizationId: string,
    input: CreateWebhookDto,
  ): Promise<WebhookWithSecret> {
    this.checkUrl(input.url);
    if (input.secret !== undefined && !isWebhookSecret(input.secret)) {
      throw invalidInput('secret must be whsec_ followed by the base64 of 24 to 64 bytes');
    }
    const spaceIds = await this.checkSpaces(userId, organizationId, input.spaces ?? []);
    const siteIds = await this.checkSites(userId, organizationId, input.sites ?? []);
    const secret = input.secret ?? newWebhookSecret();
    const now = this.clock.now();
    const webhook = Object.assign(new Webhook(), {
      id: newId(),
      organizationId,
      url: input.url,
      events: [...new Set(input.events)],
      spaceIds,
      siteIds,
      active: input.active ?? true,
      secret: this.sealed.seal(SECRET_PURPOSE, secret),
      previousSecret: null,
      previousSecretExpiresAt: null,
      consecutiveFailures: 0,
      failingSince: null,
      disabledReason: null,
      createdAt: now,
      updatedAt: now,
    });
    await this.dataSource.transaction(async (manager) => {
      await this.webhooks.insert(webhook, manager);
      if (webhook.active) await this.ping(manager, webhook, userId);
    });
    return { webhook, secret };
  }

  list(organizationId: string, query: PageQueryDto): Promise<Page<Webhook>> {
    return this.webhooks.page(organizationId, query);
  }

  async get(organizationId: string, id: string): Promise<Webhook> {
    const webhook = await this.webhooks.findInOrganization(organizationId, id);
    if (!webhook) throw notFound('Webhook');
    return webhook;
  }

  /**
   * Changes what is given. Enabling a disabled webhook clears its failure state, pings it and
   * sends the deliveries that waited meanwhile.
   */
  async update(
    userId: string,
    organizationId: string,
    id: string,
    input: UpdateWebhookDto,
  ): Promise<Webhook> {
    if (input.url !== undefined) this.checkUrl(input.url);
    const spaceIds = input.spaces && (await this.checkSpaces(userId, organizationId, input.spaces));
    const siteIds = input.sites && (await this.checkSites(userId, organizationId, input.sites));
    return this.dataSource.transaction(async (manager) => {
      const webhook = await this.webhooks.findInOrganization(organizationId, id, manager, true);
      if (!webhook) throw notFound('Webhook');
      const enabled = input.active === true && !webhook.active;
      const changes: Partial<Webhook> = {
        ...(input.url !== undefined ? { url: input.url } : {}),
        ...(input.events !== undefined ? { events: [...new Set(input.events)] } : {}),
        ...(spaceIds ? { spaceIds } : {}),
        ...(siteIds ? { siteIds } : {}),
        ...(input.active !== undefined ? { active: input.active } : {}),
        ...(enabled ? { consecutiveFailures: 0, failingSince: null, disabledReason: null } : {}),
        updatedAt: this.clock.now(),
      };
      await this.webhooks.update(id, changes, manager);
      Object.assign(webhook, changes);
      if (enabled) {
        await this.ping(manager, webhook, userId);
        const waiting = await this.deliveries.pendingHeadsOf(id, manager);
        await this.deliveryJobs.queue(
          waiting.map((deliveryId) => ({ id: deliveryId, webhookId: id })),
          manager,
        );
      }
      return webhook;
    });
  }

  /** Deletes it with its deliveries; 404 when there is none. */
  async remove(organizationId: string, id: string): Promise<void> {
    if (!(await this.webhooks.delete(organizationId, id))) throw notFound('Webhook');
  }

  /** A new secret; the current one keeps signing deliveries, beside it, for 24 hours. */
  async rotateSecret(organizationId: string, id: string): Promise<WebhookWithSecret> {
    const secret = newWebhookSecret();
    const webhook = await this.dataSource.transaction(async (manager) => {
      const found = await this.webhooks.findInOrganization(organizationId, id, manager, true);
      if (!found) throw notFound('Webhook');
      const now = this.clock.now();
      const changes: Partial<Webhook> = {
        secret: this.sealed.seal(SECRET_PURPOSE, secret),
        previousSecret: found.secret,
        previousSecretExpiresAt: new Date(now.getTime() + SECRET_OVERLAP_MS),
        updatedAt: now,
      };
      await this.webhooks.update(id, changes, manager);
      return Object.assign(found, changes);
    });
    return { webhook, secret };
  }

  async listDeliveries(
    organizationId: string,
    webhookId: string,
    query: ListDeliveriesQueryDto,
  ): Promise<Page<WebhookDelivery>> {
    await this.get(organizationId, webhookId);
    return this.deliveries.page(webhookId, query.status, query);
  }

  async getDelivery(
    organizationId: string,
    webhookId: string,
    deliveryId: string,
  ): Promise<DeliveryDetail> {
    const delivery = await this.findDelivery(organizationId, webhookId, deliveryId);
    const [payload, attempts] = await Promise.all([
      this.deliveries.payloadOf(delivery.eventId),
      this.deliveries.attemptsOf(delivery.id),
    ]);
    return { delivery, payload: payload ?? {}, attempts };
  }

  /**
   * Delivers the event again, as a new delivery with the same event (so the same `webhook-id`),
   * after the deliveries of its resource already waiting.
   */
  async redeliver(
    organizationId: string,
    webhookId: string,
    deliveryId: string,
  ): Promise<WebhookDelivery> {
    const original = await this.findDelivery(organizationId, webhookId, deliveryId);
    const now = this.clock.now();
    const delivery = Object.assign(new WebhookDelivery(), {
      id: newId(),
      webhookId,
      eventId: original.eventId,
      eventType: original.eventType,
      resourceKey: original.resourceKey,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      leaseUntil: null,
      redeliveryOf: original.id,
      createdAt: now,
      finishedAt: null,
    });
    await this.dataSource.transaction(async (manager) => {
      await this.deliveries.insertMany([delivery], manager);
      await this.deliveryJobs.queue([delivery], manager);
    });
    return (await this.deliveries.findInWebhook(webhookId, delivery.id)) ?? delivery;
  }

  private async findDelivery(
    organizationId: string,
    webhookId: string,
    deliveryId: string,
  ): Promise<WebhookDelivery> {
    await this.get(organizationId, webhookId);
    const delivery = await this.deliveries.findInWebhook(webhookId, deliveryId);
    if (!delivery) throw notFound('Webhook delivery');
    return delivery;
  }

  private async ping(manager: EntityManager, webhook: Webhook, userId: string): Promise<void> {
    await this.outbox.record(manager, {
      type: 'ping',
      organizationId: webhook.organizationId,
      resource: { type: 'webhook', id: webhook.id },
      actor: { kind: 'user', id: userId },
      fields: { webhookId: webhook.id },
    });
  }

  /** An http(s) URL; a private or loopback address literal only when the instance allows. */
  private checkUrl(raw: string): void {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw invalidInput('url must be an http(s) URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw invalidInput('url must be an http(s) URL');
    }
    if (this.config.OUTBOUND_ALLOW_PRIVATE) return;
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
    const local = host === 'localhost' || host.endsWith('.localhost');
    if (local || (isIP(host) !== 0 && !isPublicAddress(host))) {
      throw invalidInput(`url: ${host} is a private address; webhooks go to public ones.`);
    }
  }

  private async checkSpaces(
    userId: string,
    organizationId: string,
    ids: string[],
  ): Promise<string[]> {
    const unique = [...new Set(ids)];
    for (const spaceId of unique) {
      const space = await this.policy.resolveOutsideRequest(userId, 'space', spaceId, { spaceId });
      if (space?.organizationId !== organizationId) {
        throw invalidInput(`spaces: no space ${spaceId} in this organization.`);
      }
    }
    return unique;
  }

  private async checkSites(
    userId: string,
    organizationId: string,
    ids: string[],
  ): Promise<string[]> {
    const unique = [...new Set(ids)];
    for (const siteId of unique) {
      const site = await this.policy.resolveOutsideRequest(userId, 'site', siteId, {
        organizationId,
        siteId,
      });
      if (!site) throw invalidInput(`sites: no site ${siteId} in this organization.`);
    }
    return unique;
  }
}
