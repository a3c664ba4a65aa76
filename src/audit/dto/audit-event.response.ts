import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export const AUDIT_ACTOR_TYPES = ['user', 'integration', 'installation', 'system', 'support'];
export const AUDIT_SOURCES = [
  'ui',
  'api',
  'integration',
  'webhook',
  'workflow',
  'script',
  'support',
];

export class AuditEventActorResponse {
  @ApiProperty({
    enum: AUDIT_ACTOR_TYPES,
    description: '`user`, or `support` for the instance administrator.',
  })
  type!: string;

  @ApiProperty({ description: 'Stable identifier of the actor: a user id, or `admin`.' })
  id!: string;

  @ApiPropertyOptional({ description: 'Display label captured when the event was recorded.' })
  label?: string;
}

export class AuditEventTargetResponse {
  @ApiProperty({ description: 'Kind of resource affected by the change.' })
  type!: string;

  @ApiProperty({ description: 'Stable identifier of the affected resource.' })
  id!: string;

  @ApiPropertyOptional({ description: 'Display label captured when the event was recorded.' })
  label?: string;
}

export class AuditEventUrlsResponse {
  @ApiProperty({ format: 'uri', description: 'URL of the audit event in the API.' })
  location!: string;
}

export class AuditEventResponse {
  @ApiProperty({ enum: ['audit-event'] }) object!: 'audit-event';
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'date-time' }) occurredAt!: string;
  @ApiProperty({ description: 'Stable action name describing the recorded change.' })
  action!: string;
  @ApiProperty({ type: AuditEventActorResponse }) actor!: AuditEventActorResponse;
  @ApiProperty({ enum: AUDIT_SOURCES, description: 'Always `api` in Bindery.' }) source!: 'api';
  @ApiProperty({ type: AuditEventTargetResponse }) target!: AuditEventTargetResponse;
  @ApiProperty({ type: AuditEventUrlsResponse }) urls!: AuditEventUrlsResponse;
}

export class AuditEventPayloadResponse {
  @ApiProperty({ description: 'The operation called.' }) operationId!: string;
  @ApiProperty() method!: string;
  @ApiProperty({ nullable: true, type: String, description: 'The API token used (its id).' })
  tokenId!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The request’s `X-Request-Id`.' })
  requestId!: string | null;
  @ApiProperty({ nullable: true, type: String }) ipAddress!: string | null;
  @ApiProperty({ nullable: true, type: String }) userAgent!: string | null;
  @ApiProperty({
    nullable: true,
    type: 'object',
    additionalProperties: true,
    description:
      'The request body’s fields and values, secrets redacted (`[redacted]`), at most 4 KB (else `{truncated: true, fields}`).',
  })
  changes!: Record<string, unknown> | null;
}

export class AuditEventDetailsResponse extends AuditEventResponse {
  @ApiPropertyOptional({ description: 'The request id of the call that recorded the event.' })
  executionId?: string;
  @ApiProperty({ minimum: 1 }) schemaVersion!: number;
  @ApiProperty({ type: AuditEventPayloadResponse }) payload!: AuditEventPayloadResponse;
}

export class AuditEventActionResponse {
  @ApiProperty({ enum: ['audit-event-action'] }) object!: 'audit-event-action';
  @ApiProperty({ description: 'Stable action identifier stored on audit events.' }) id!: string;
  @ApiProperty({ description: 'Human-readable label for the action.' }) label!: string;
}

export class AuditEventActionsResponse {
  @ApiProperty({ type: AuditEventActionResponse, isArray: true })
  items!: AuditEventActionResponse[];
}
