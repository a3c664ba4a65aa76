import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { Access, CurrentUser, Granted } from '../platform/auth/access.decorator';
import type { UserActor } from '../platform/auth/actor';
import { ErrorBody } from '../platform/errors/error-body';
import type { ResolvedAccess } from '../platform/policy/access';
import { PageQueryDto } from '../platform/pagination/page-query.dto';
import { mapPage, Page, PageOf } from '../platform/pagination/page';
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
    description:
      'Organization, space and collection invites, newest first. Every item has `role`, as ' +
      "GitBook's listing declares: null on a space or collection invite (a non-member joins " +
      'as a guest), which also has `level` and its space or collection.',
  })
  @ApiOkResponse({ type: PageOf(LinkInviteResponse) })
  async list(
    @Granted() access: ResolvedAccess,
    @CurrentUser() actor: UserActor,
    @Query() query: PageQueryDto,
  ): Promise<Page<LinkInviteResponse>> {
    const page = await this.linkInvites.list(access.organizationId, actor.userId, query);
    return mapPage(page, (view) => this.presenter.present(view, asAdmin(access), { inList: true }));
  }

  @Post()
  @HttpCode(201)
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'createOrganizationInvite',
    summary: 'Create an organization invite',
    description:
      'An invite link: whoever holds it may join with its role while `inviteLinks` is on. ' +
      'Space and collection invites (`{level, space}`, `{level, collection}`) need a live ' +
      'space or a collection of the organization; `level` defaults to `read`. Joining with ' +
      'one makes a non-member a guest and grants `level` there (never lowering a higher grant).',
  })
  @ApiCreatedResponse({ type: LinkInviteResponse })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description: 'Invalid role or level, or unknown or deleted space or collection.',
  })
  async create(
    @Granted() access: ResolvedAccess,
    @CurrentUser() actor: UserActor,
    @Body() body: CreateOrganizationInviteDto,
  ): Promise<LinkInviteResponse> {
    const view = await this.linkInvites.create(access.organizationId, actor.userId, body);
    return this.presenter.present(view, asAdmin(access));
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
    const { view, membership } = await this.linkInvites.getForCaller(
      actor.userId,
      organizationId,
      inviteId,
    );
    return this.presenter.present(view, membership);
  }

  @Patch(':inviteId')
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'updateOrganizationInviteById',
    summary: 'Update an organization invite',
  })
  @ApiOkResponse({ type: LinkInviteResponse })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description: 'Invalid role or level, or the one the invite does not take.',
  })
  async update(
    @Granted() access: ResolvedAccess,
    @CurrentUser() actor: UserActor,
    @Param('inviteId') inviteId: string,
    @Body() body: UpdateOrganizationInviteDto,
  ): Promise<LinkInviteResponse> {
    const view = await this.linkInvites.update(access.organizationId, inviteId, actor.userId, body);
    return this.presenter.present(view, asAdmin(access));
  }

  @Delete(':inviteId')
  @HttpCode(204)
  @Access('organization', 'admin')
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
