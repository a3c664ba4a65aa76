import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import { Access, Granted } from '../platform/auth/access.decorator';
import { ErrorBody } from '../platform/errors/error-body';
import { mapPage, Page, PageOf } from '../platform/pagination/page';
import type { ResolvedAccess } from '../platform/policy/access';
import { auditActions } from './audit-actions';
import { AuditEventsPresenter } from './audit-events.presenter';
import { AuditEventsService } from './audit-events.service';
import { ListAuditEventsQueryDto } from './dto/audit-event-queries.dto';
import {
  AuditEventActionsResponse,
  AuditEventDetailsResponse,
  AuditEventResponse,
} from './dto/audit-event.response';

@Controller('orgs/:organizationId')
export class AuditEventsController {
  constructor(
    private readonly events: AuditEventsService,
    private readonly presenter: AuditEventsPresenter,
  ) {}

  @Get('audit-events')
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'listOrganizationAuditEvents',
    summary: 'List organization audit events',
    description:
      'The successful writes made through the API in the organization, newest first: who (a user and the API token used), what, on which resource, when and from where.',
  })
  @ApiOkResponse({ type: PageOf(AuditEventResponse) })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' })
  async list(
    @Granted() organization: ResolvedAccess,
    @Query() query: ListAuditEventsQueryDto,
  ): Promise<Page<AuditEventResponse>> {
    const page = await this.events.list(organization.id, query);
    return mapPage(page, (event) => this.presenter.event(event));
  }

  @Get('audit-events/:auditEventId')
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'getOrganizationAuditEvent',
    summary: 'Get an organization audit event',
    description:
      'One event with its `payload`: the API token, request id, IP address, user agent and the request body’s fields (secrets redacted).',
  })
  @ApiParam({
    name: 'auditEventId',
    format: 'uuid',
    description: 'Unique identifier of the audit event.',
  })
  @ApiOkResponse({ type: AuditEventDetailsResponse })
  async get(
    @Granted() organization: ResolvedAccess,
    @Param('auditEventId') auditEventId: string,
  ): Promise<AuditEventDetailsResponse> {
    return this.presenter.details(await this.events.get(organization.id, auditEventId));
  }

  @Get('audit-event-actions')
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'listOrganizationAuditEventActions',
    summary: 'List organization audit event actions',
    description: 'Every action the audit log records, with its label.',
  })
  @ApiOkResponse({ type: AuditEventActionsResponse })
  listActions(): AuditEventActionsResponse {
    return {
      items: auditActions().map((action) => ({ object: 'audit-event-action', ...action })),
    };
  }
}
