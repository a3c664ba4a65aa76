import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Access, CurrentUser, Granted } from '../../platform/auth/access.decorator';
import type { UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import type { ResolvedAccess } from '../../platform/policy/access';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { mapPage, Page, PageOf } from '../../platform/pagination/page';
import {
  CreateOrganizationInviteDto,
  LinkInviteResponse,
  UpdateOrganizationInviteDto,
} from './dto/link-invite.dto';
import { CallerMembership } from './invite-redundancy';
import { LinkInvitesPresenter } from './link-invites.presenter';
import { LinkInvitesService } from './link-invites.service';

/** The caller of an admin-only route: an active admin member. */
const asAdmin = (access: ResolvedAccess): CallerMembership => ({
  role: access.role,
  disabled: false,
});

@ApiTags('organization-invites')
@Controller('orgs/:organizationId/link-invites')
export class LinkInvitesController {
  constructor(
    private readonly linkInvites: LinkInvitesService,
    private readonly presenter: LinkInvitesPresenter,
  ) {}

  @Get()
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'listOrganizationInviteLinks',
    summary: 'List organization invites',
  })
  @ApiOkResponse({ type: PageOf(LinkInviteResponse) })
  async list(
    @Granted() access: ResolvedAccess,
    @Query() query: PageQueryDto,
  ): Promise<Page<LinkInviteResponse>> {
    const page = await this.linkInvites.list(access.organizationId, query);
    return mapPage(page, (invite) => this.presenter.present(invite, asAdmin(access)));
  }

  @Post()
  @HttpCode(201)
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'createOrganizationInvite',
    summary: 'Create an organization invite',
    description:
      'An invite link: whoever holds it may join with its role while `inviteLinks` is on. ' +
      'Space and collection invites (`{level, space}`, `{level, collection}`) need the space ' +
      'or collection to exist in the organization.',
  })
  @ApiCreatedResponse({ type: LinkInviteResponse })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description: 'Invalid role, or unknown space or collection.',
  })
  async create(
    @Granted() access: ResolvedAccess,
    @CurrentUser() actor: UserActor,
    @Body() body: CreateOrganizationInviteDto,
  ): Promise<LinkInviteResponse> {
    const invite = await this.linkInvites.create(access.organizationId, actor.userId, body);
    return this.presenter.present(invite, asAdmin(access));
  }

  @Get(':inviteId')
  @Access.user()
  @ApiOperation({
    operationId: 'getOrganizationInviteLink',
    summary: 'Get an organization invite link',
    description:
      'For any user holding the invite id (the link), so that a user about to join sees what ' +
      'the invite gives; `redundant` says whether the caller already has it. While ' +
      "`inviteLinks` is off, only the organization's admins see its invites.",
  })
  @ApiOkResponse({ type: LinkInviteResponse })
  @ApiNotFoundResponse({ type: ErrorBody, description: 'No such invite in this organization.' })
  async get(
    @CurrentUser() actor: UserActor,
    @Param('organizationId') organizationId: string,
    @Param('inviteId') inviteId: string,
  ): Promise<LinkInviteResponse> {
    const { invite, membership } = await this.linkInvites.getForCaller(
      actor.userId,
      organizationId,
      inviteId,
    );
    return this.presenter.present(invite, membership);
  }

  @Patch(':inviteId')
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'updateOrganizationInviteById',
    summary: 'Update an organization invite',
  })
  @ApiOkResponse({ type: LinkInviteResponse })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid role.' })
  async update(
    @Granted() access: ResolvedAccess,
    @Param('inviteId') inviteId: string,
    @Body() body: UpdateOrganizationInviteDto,
  ): Promise<LinkInviteResponse> {
    const invite = await this.linkInvites.update(access.organizationId, inviteId, body);
    return this.presenter.present(invite, asAdmin(access));
  }

  @Delete(':inviteId')
  @HttpCode(204)
  @Access('organization', 'admin')
  @ApiTags('organizations')
  @ApiOperation({
    operationId: 'deleteOrganizationInviteById',
    summary: 'Delete an organization invite',
    description: 'The link stops working at once. 204 also when the invite did not exist.',
  })
  @ApiNoContentResponse({ description: 'The invite is gone.' })
  async delete(
    @Granted() access: ResolvedAccess,
    @Param('inviteId') inviteId: string,
  ): Promise<void> {
    await this.linkInvites.delete(access.organizationId, inviteId);
  }
}
