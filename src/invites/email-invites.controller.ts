import { Controller, Delete, Get, HttpCode, Param, Query } from '@nestjs/common';
import {
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { Access, Granted } from '../platform/auth/access.decorator';
import { ErrorBody } from '../platform/errors/error-body';
import type { ResolvedAccess } from '../platform/policy/access';
import { PageQueryDto } from '../platform/pagination/page-query.dto';
import { mapPage, Page, PageOf } from '../platform/pagination/page';
import { EmailInviteResponse } from './dto/invite-users.dto';
import { EmailInvitesPresenter } from './email-invites.presenter';
import { EmailInvitesService } from './email-invites.service';

/** Bindery's own: the invitations emailed to addresses of no user yet, until accepted. */
@Controller('orgs/:organizationId/email-invites')
export class EmailInvitesController {
  constructor(
    private readonly invites: EmailInvitesService,
    private readonly presenter: EmailInvitesPresenter,
  ) {}

  @Get()
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'listOrganizationEmailInvites',
    summary: 'List pending email invitations',
    description:
      'Bindery extension: the invitations made by inviteUsersToOrganization for addresses of ' +
      'no user, oldest first, until accepted, revoked or expired. While email is off, each ' +
      'carries the link that accepts it (`url`).',
  })
  @ApiOkResponse({ type: PageOf(EmailInviteResponse) })
  async list(
    @Granted() access: ResolvedAccess,
    @Query() query: PageQueryDto,
  ): Promise<Page<EmailInviteResponse>> {
    const page = await this.invites.list(access.organizationId, query);
    return mapPage(page, (invite) => this.presenter.present(invite));
  }

  @Delete(':inviteId')
  @HttpCode(204)
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'revokeOrganizationEmailInvite',
    summary: 'Revoke a pending email invitation',
    description: 'Bindery extension: its link stops working at once.',
  })
  @ApiNoContentResponse({ description: 'Revoked.' })
  @ApiNotFoundResponse({ type: ErrorBody, description: 'No such organization or invitation.' })
  async revoke(
    @Granted() access: ResolvedAccess,
    @Param('inviteId') inviteId: string,
  ): Promise<void> {
    await this.invites.revoke(access.organizationId, inviteId);
  }
}
