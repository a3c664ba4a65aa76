import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
} from 'class-validator';
import { EVENT_TYPES } from '../../platform/events/event-types';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { PresentNotNull } from '../../platform/validation/present-not-null';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../entities/webhook-delivery.entity';
import { WEBHOOK_SECRET_PATTERN } from '../webhook-secrets';

/** What a webhook may subscribe to: the event types, or `*` for all. */
export const WEBHOOK_EVENT_CHOICES = ['*', ...EVENT_TYPES] as const;

/** Body of `createWebhook`. */
export class CreateWebhookDto {
  @ApiProperty({
    format: 'uri',
    maxLength: 2048,
    example: 'https://hooks.example.com/bindery',
    description:
      'Where events are POSTed: an http(s) URL on a public address (private and loopback ' +
      'addresses only when the instance allows them, OUTBOUND_ALLOW_PRIVATE).',
  })
  @IsString()
  @MaxLength(2048)
  @Matches(/^https?:\/\/[^\s/?#]+([/?#]\S*)?$/i, { message: 'url must be an http(s) URL' })
  url!: string;

  @ApiProperty({
    type: [String],
    enum: WEBHOOK_EVENT_CHOICES,
    example: ['space_content_updated', 'change_request_merged'],
    description: 'The event types to deliver; `*` for every one.',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_CHOICES.length)
  @IsIn(WEBHOOK_EVENT_CHOICES, {
    each: true,
    message: `each value of events must be * or one of ${EVENT_TYPES.join(', ')}`,
  })
  events!: string[];

  @ApiPropertyOptional({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description:
      'The signing secret: `whsec_` and the base64 of 24 to 64 random bytes. Default: a new one, ' +
      'in the answer.',
  })
  @PresentNotNull()
  @IsString()
  @Matches(WEBHOOK_SECRET_PATTERN, {
    message: 'secret must be whsec_ followed by the base64 of 24 to 64 bytes',
  })
  secret?: string;

  @ApiPropertyOptional({
    type: [String],
    example: ['h1Qp0dXb3kYtR8mZs2Va'],
    description:
      'Only events about these spaces of the organization (with `sites`: about one of these ' +
      'spaces or sites). Default: every space, and events about none.',
  })
  @PresentNotNull()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @Length(1, 32, { each: true })
  spaces?: string[];

  @ApiPropertyOptional({
    type: [String],
    example: [],
    description: 'Only events about these sites of the organization (see `spaces`).',
  })
  @PresentNotNull()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @Length(1, 32, { each: true })
  sites?: string[];

  @ApiPropertyOptional({
    default: true,
    description: 'Whether events are delivered; an active webhook gets a `ping` at once.',
  })
  @PresentNotNull()
  @IsBoolean()
  active?: boolean;
}

/** Body of `updateWebhook`: the fields to change (none may be null). */
export class UpdateWebhookDto extends PartialType(OmitType(CreateWebhookDto, ['secret'] as const), {
  skipNullProperties: false,
}) {}

/** Query of `listWebhookDeliveries`. */
export class ListDeliveriesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES, description: 'Only deliveries in this state.' })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES, { message: `status must be one of ${DELIVERY_STATUSES.join(', ')}` })
  status?: DeliveryStatus;
}
