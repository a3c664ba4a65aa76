import { Injectable } from '@nestjs/common';
import { UrlBuilder } from '../platform/urls/url-builder';
import type {
  WebhookDeliveryAttemptResponse,
  WebhookDeliveryDetailResponse,
  WebhookDeliveryResponse,
  WebhookResponse,
  WebhookWithSecretResponse,
} from './dto/webhook.response';
import type { WebhookDeliveryAttempt } from './entities/webhook-delivery-attempt.entity';
import type { WebhookDelivery } from './entities/webhook-delivery.entity';
import type { Webhook } from './entities/webhook.entity';

/** Webhooks and their deliveries on the wire; a secret only where it is given. */
@Injectable()
export class WebhooksPresenter {
  constructor(private readonly urls: UrlBuilder) {}

  webhook(webhook: Webhook, now: Date): WebhookResponse {
    const rotating =
      webhook.previousSecretExpiresAt !== null && webhook.previousSecretExpiresAt > now;
    return {
      object: 'webhook',
      id: webhook.id,
      organization: webhook.organizationId,
      url: webhook.url,
      events: webhook.events,
      spaces: webhook.spaceIds,
      sites: webhook.siteIds,
      active: webhook.active,
      ...(webhook.disabledReason ? { disabledReason: webhook.disabledReason } : {}),
      ...(webhook.failingSince
        ? {
            failing: {
              consecutiveFailures: webhook.consecutiveFailures,
              since: webhook.failingSince.toISOString(),
            },
          }
        : {}),
      ...(rotating
        ? { previousSecretExpiresAt: webhook.previousSecretExpiresAt!.toISOString() }
        : {}),
      createdAt: webhook.createdAt.toISOString(),
      updatedAt: webhook.updatedAt.toISOString(),
      urls: { location: this.urls.api('orgs', webhook.organizationId, 'webhooks', webhook.id) },
    };
  }

  withSecret(webhook: Webhook, secret: string, now: Date): WebhookWithSecretResponse {
    return { ...this.webhook(webhook, now), secret };
  }

  delivery(delivery: WebhookDelivery): WebhookDeliveryResponse {
    return {
      object: 'webhook-delivery',
      id: delivery.id,
      webhook: delivery.webhookId,
      event: delivery.eventId,
      eventType: delivery.eventType,
      resource: delivery.resourceKey,
      status: delivery.status,
      attemptCount: delivery.attempts,
      ...(delivery.status === 'pending' && delivery.nextAttemptAt
        ? { nextAttemptAt: delivery.nextAttemptAt.toISOString() }
        : {}),
      ...(delivery.redeliveryOf ? { redeliveryOf: delivery.redeliveryOf } : {}),
      createdAt: delivery.createdAt.toISOString(),
      ...(delivery.finishedAt ? { finishedAt: delivery.finishedAt.toISOString() } : {}),
    };
  }

  deliveryDetail(
    delivery: WebhookDelivery,
    payload: Record<string, unknown>,
    attempts: WebhookDeliveryAttempt[],
  ): WebhookDeliveryDetailResponse {
    return {
      ...this.delivery(delivery),
      payload,
      attempts: attempts.map((attempt) => this.attempt(attempt)),
    };
  }

  private attempt(attempt: WebhookDeliveryAttempt): WebhookDeliveryAttemptResponse {
    return {
      number: attempt.number,
      attemptedAt: attempt.attemptedAt.toISOString(),
      durationMs: attempt.durationMs,
      ...(attempt.statusCode !== null ? { statusCode: attempt.statusCode } : {}),
      ...(attempt.response !== null ? { response: attempt.response } : {}),
      ...(attempt.error !== null ? { error: attempt.error } : {}),
    };
  }
}
