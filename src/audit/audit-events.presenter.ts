import { Injectable } from '@nestjs/common';
import { UrlBuilder } from '../platform/urls/url-builder';
import type { AuditEventDetailsResponse, AuditEventResponse } from './dto/audit-event.response';
import type { AuditEvent } from './entities/audit-event.entity';

/** The version of `payload`'s shape. */
const SCHEMA_VERSION = 1;

/** GitBook's `AuditEvent` and `AuditEventDetails`. */
@Injectable()
export class AuditEventsPresenter {
  constructor(private readonly urls: UrlBuilder) {}

  event(event: AuditEvent): AuditEventResponse {
    return {
      object: 'audit-event',
      id: event.id,
      occurredAt: event.occurredAt.toISOString(),
      action: event.action,
      actor: {
        type: event.actorType,
        id: event.actorId,
        ...(event.actorLabel !== null ? { label: event.actorLabel } : {}),
      },
      source: 'api',
      target: {
        type: event.targetType,
        id: event.targetId,
        ...(event.targetLabel !== null ? { label: event.targetLabel } : {}),
      },
      urls: {
        location: this.urls.api('orgs', event.organizationId ?? '', 'audit-events', event.id),
      },
    };
  }

  details(event: AuditEvent): AuditEventDetailsResponse {
    return {
      ...this.event(event),
      ...(event.requestId !== null ? { executionId: event.requestId } : {}),
      schemaVersion: SCHEMA_VERSION,
      payload: {
        operationId: event.operationId,
        method: event.method,
        tokenId: event.tokenId,
        requestId: event.requestId,
        ipAddress: event.ipAddress,
        userAgent: event.userAgent,
        changes: event.changes,
      },
    };
  }
}
