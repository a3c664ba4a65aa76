import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../entities/webhook-delivery.entity';
import { WEBHOOK_EVENT_CHOICES } from './webhook.dto';

export class WebhookFailureResponse {
  @ApiProperty({ type: 'integer', description: 'Failed attempts since the last successful one.' })
  consecutiveFailures!: number;
  @ApiProperty({ format: 'date-time', description: 'The first of them.' })
  since!: string;
}

export class WebhookUrlsResponse {
  @ApiProperty({ format: 'uri', description: 'The webhook in the API.' })
  location!: string;
}

/** A webhook (Bindery's own). */
export class WebhookResponse {
  @ApiProperty({ enum: ['webhook'] }) object!: 'webhook';
  @ApiProperty({ example: 'q2Zc0m5Hh7vB9xX1aLwE' }) id!: string;
  @ApiProperty({ example: 'obYuLe3ZwMbWDRDmYY0o' }) organization!: string;
  @ApiProperty({ format: 'uri', example: 'https://hooks.example.com/bindery' }) url!: string;
  @ApiProperty({ type: [String], enum: WEBHOOK_EVENT_CHOICES, example: ['*'] })
  events!: string[];
  @ApiProperty({ type: [String], description: 'Empty: not limited to some spaces.' })
  spaces!: string[];
  @ApiProperty({ type: [String], description: 'Empty: not limited to some sites.' })
  sites!: string[];
  @ApiProperty({ description: 'Whether events are delivered to it.' }) active!: boolean;
  @ApiPropertyOptional({
    description: 'Why Bindery disabled it (its deliveries kept failing); absent once enabled.',
    example:
      'Every delivery attempt failed from 2026-01-01T10:00:00.000Z to 2026-01-02T07:42:35.000Z ' +
      '(11 in a row, the last: HTTP 503), and delivery … ran out of retries.',
  })
  disabledReason?: string;
  @ApiPropertyOptional({
    type: WebhookFailureResponse,
    description: 'Present while its latest attempts fail.',
  })
  failing?: WebhookFailureResponse;
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Until then, deliveries are also signed with the secret before the last rotation.',
  })
  previousSecretExpiresAt?: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ type: WebhookUrlsResponse }) urls!: WebhookUrlsResponse;
}

/** A webhook with its secret: the answer of its creation and of a rotation only. */
export class WebhookWithSecretResponse extends WebhookResponse {
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'The signing secret, shown in this answer only: keep it.',
  })
  secret!: string;
}

export class WebhookDeliveryAttemptResponse {
  @ApiProperty({ type: 'integer', example: 1 }) number!: number;
  @ApiProperty({ format: 'date-time' }) attemptedAt!: string;
  @ApiProperty({ type: 'integer', description: 'Milliseconds until the answer or the failure.' })
  durationMs!: number;
  @ApiPropertyOptional({ type: 'integer', example: 200, description: 'Absent when none came.' })
  statusCode?: number;
  @ApiPropertyOptional({ description: "The first KB of the endpoint's answer." })
  response?: string;
  @ApiPropertyOptional({ example: 'The endpoint answered 500.' }) error?: string;
}

/** A delivery of an event to a webhook (Bindery's own). */
export class WebhookDeliveryResponse {
  @ApiProperty({ enum: ['webhook-delivery'] }) object!: 'webhook-delivery';
  @ApiProperty() id!: string;
  @ApiProperty() webhook!: string;
  @ApiProperty({ description: 'The event (`evt_…`): the `webhook-id` header of its requests.' })
  event!: string;
  @ApiProperty({ example: 'space_content_updated' }) eventType!: string;
  @ApiProperty({
    example: 'space:h1Qp0dXb3kYtR8mZs2Va',
    description: 'What the event is about; its deliveries to one webhook go out in order.',
  })
  resource!: string;
  @ApiProperty({
    enum: DELIVERY_STATUSES,
    description:
      '`pending` (waiting, being retried, or waiting for an earlier delivery of its resource), ' +
      '`delivered` (a 2xx), `failed` (its retries ran out).',
  })
  status!: DeliveryStatus;
  @ApiProperty({ type: 'integer', description: 'Attempts so far.' }) attemptCount!: number;
  @ApiPropertyOptional({ format: 'date-time', description: 'When it is tried next (pending).' })
  nextAttemptAt?: string;
  @ApiPropertyOptional({ description: 'The delivery this one repeats (a redelivery).' })
  redeliveryOf?: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'When it was delivered or failed.' })
  finishedAt?: string;
}

/** A delivery with its body and every attempt. */
export class WebhookDeliveryDetailResponse extends WebhookDeliveryResponse {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The body sent (without `installationId`, the webhook id added to it).',
    example: {
      eventId: 'evt_…',
      type: 'space_content_updated',
      occurredAt: '2026-01-01T10:00:00.000Z',
      organizationId: 'obYuLe3ZwMbWDRDmYY0o',
      actor: { kind: 'user', id: '…' },
      spaceId: 'h1Qp0dXb3kYtR8mZs2Va',
    },
  })
  payload!: Record<string, unknown>;
  @ApiProperty({ type: [WebhookDeliveryAttemptResponse], description: 'Oldest first.' })
  attempts!: WebhookDeliveryAttemptResponse[];
}
