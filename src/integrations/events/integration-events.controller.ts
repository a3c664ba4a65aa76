import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { notFound } from '../../platform/errors/domain-error';
import { mapPage, Page, PageOf } from '../../platform/pagination/page';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import type { ResolvedAccess } from '../../platform/policy/access';
import type { Integration } from '../entities/integration.entity';
import type { IntegrationEvent } from './integration-event.entity';
import { IntegrationEventsRepository } from './integration-events.repository';

class IntegrationEventResponse {
  @ApiProperty() id!: string;
  @ApiProperty({ description: 'The integration it was sent to.' }) integrationId!: string;
  @ApiPropertyOptional({ description: 'The installation it is about.' }) installationId?: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: "GitBook's `Event`." })
  payload!: Record<string, unknown>;
  @ApiProperty({ enum: ['success', 'failed'] }) status!: 'success' | 'failed';
}

class IntegrationEventLogResponse {
  @ApiProperty() message!: string;
  @ApiProperty({ format: 'date-time' }) timestamp!: string;
  @ApiProperty({ enum: ['debug', 'info', 'warn', 'error'] }) level!: string;
}

class IntegrationEventTraceResponse {
  @ApiProperty({ type: [IntegrationEventLogResponse] }) logs!: IntegrationEventLogResponse[];
}

class IntegrationEventDetailResponse {
  @ApiProperty({ type: IntegrationEventResponse }) event!: IntegrationEventResponse;
  @ApiProperty({ type: IntegrationEventTraceResponse }) trace!: IntegrationEventTraceResponse;
}

/** The events sent to an integration's script, for its developers (what `gitbook tail` reads). */
@Controller('integrations/:integrationName/events')
export class IntegrationEventsController {
  constructor(private readonly events: IntegrationEventsRepository) {}

  @Get()
  @Access('integration', 'admin', {
    param: 'integrationName',
    integrations: { integration: true },
  })
  @ApiOperation({
    operationId: 'listIntegrationEvents',
    summary: 'List the events sent to an integration',
    description: 'Newest first; for the admins of the organization that owns it.',
  })
  @ApiOkResponse({ type: PageOf(IntegrationEventResponse) })
  async list(
    @Granted() access: ResolvedAccess<Integration>,
    @Query() query: PageQueryDto,
  ): Promise<Page<IntegrationEventResponse>> {
    return mapPage(await this.events.page(access.entity!.id, query), present);
  }

  @Get(':eventId')
  @Access('integration', 'admin', {
    param: 'integrationName',
    integrations: { integration: true },
  })
  @ApiOperation({
    operationId: 'getIntegrationEvent',
    summary: 'Get an event sent to an integration',
    description: 'With its trace: how the script answered, or why it did not.',
  })
  @ApiOkResponse({ type: IntegrationEventDetailResponse })
  async get(
    @Granted() access: ResolvedAccess<Integration>,
    @Param('eventId') eventId: string,
  ): Promise<IntegrationEventDetailResponse> {
    const event = await this.events.findOfIntegration(access.entity!.id, eventId);
    if (!event) throw notFound('Event');
    return { event: present(event), trace: { logs: logsOf(event) } };
  }
}

function present(event: IntegrationEvent): IntegrationEventResponse {
  return {
    id: event.id,
    integrationId: event.integrationId,
    ...(event.installationId ? { installationId: event.installationId } : {}),
    createdAt: event.createdAt.toISOString(),
    payload: event.payload,
    status: event.status,
  };
}

/**
 * The trace of an event: what the script logged meanwhile (its `console` lines and uncaught
 * exceptions), then what it answered, or why it did not answer.
 */
function logsOf(event: IntegrationEvent): IntegrationEventLogResponse[] {
  const timestamp = new Date(event.createdAt.getTime() + event.durationMs).toISOString();
  const logged = event.logs ?? [];
  if (event.error) return [...logged, { level: 'error', message: event.error, timestamp }];
  const response = event.response!;
  const answered = `Answered ${response.status} (${response.contentType ?? 'no type'}) in ${event.durationMs} ms`;
  return [
    ...logged,
    { level: event.status === 'success' ? 'info' : 'error', message: answered, timestamp },
    ...(response.body ? [{ level: 'debug', message: response.body, timestamp }] : []),
  ];
}
