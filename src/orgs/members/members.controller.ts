import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { Access, CurrentUser, Granted } from '../../platform/auth/access.decorator';
import type { UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { mapPage, Page, PageOf } from '../../platform/pagination/page';
import type { ResolvedAccess } from '../../platform/policy/access';
import { ListMembersQueryDto } from './dto/list-members.query';
import { MemberResponse, PingResponse } from './dto/member.response';
import { UpdateMemberDto } from './dto/update-member.dto';
import { MembersPresenter } from './members.presenter';
import { MembersService } from './members.service';

const LAST_ADMIN =
  'The member is the last (enabled) admin of the organization: it cannot be demoted or removed ' +
  'until another member is admin.';

@Controller('orgs/:organizationId')
export class MembersController {
  constructor(
    private readonly members: MembersService,
    private readonly presenter: MembersPresenter,
  ) {}

  @Get('members')
  @Access('organization', 'read')
  @ApiOperation({
    operationId: 'listMembersInOrganizationById',
    summary: 'List all organization members',
    description: 'Disabled members included. Sorting by lastSeenAt lists only members seen once.',
  })
  @ApiOkResponse({ type: PageOf(MemberResponse) })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'A bad query parameter.' })
  async list(
    @Granted() access: ResolvedAccess,
    @Query() query: ListMembersQueryDto,
  ): Promise<Page<MemberResponse>> {
    const page = await this.members.list(access.organizationId, query);
    return mapPage(page, (record) => this.presenter.present(record));
  }

  @Get('members/:userId')
  @Access('organization', 'read')
  @ApiOperation({
    operationId: 'getMemberInOrganizationById',
    summary: 'Get an organization member by its ID',
  })
  @ApiOkResponse({ type: MemberResponse })
  async get(
    @Granted() access: ResolvedAccess,
    @Param('userId') userId: string,
  ): Promise<MemberResponse> {
    return this.presenter.present(await this.members.get(access.organizationId, userId));
  }

  @Patch('members/:userId')
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'updateMemberInOrganizationById',
    summary: 'Update an organization member',
    description: 'Sets the role of the member; null makes it a guest.',
  })
  @ApiOkResponse({ type: MemberResponse })
  @ApiBadRequestResponse({ type: ErrorBody, description: `A bad role. ${LAST_ADMIN}` })
  async update(
    @CurrentUser() actor: UserActor,
    @Granted() access: ResolvedAccess,
    @Param('userId') userId: string,
    @Body() body: UpdateMemberDto,
  ): Promise<MemberResponse> {
    return this.presenter.present(
      await this.members.update(access.organizationId, userId, body, actor.userId),
    );
  }

  @Delete('members/:userId')
  @HttpCode(204)
  @Access('member', 'remove', 'userId')
  @ApiOperation({
    operationId: 'removeMemberFromOrganizationById',
    summary: 'Delete an organization member',
    description:
      'Admins remove any member; any member may remove itself (leave the organization). ' +
      'Also 204 when the user is not a member. Its team memberships go with it.',
  })
  @ApiNoContentResponse({ description: 'Removed, or was not a member.' })
  @ApiBadRequestResponse({ type: ErrorBody, description: LAST_ADMIN })
  remove(@CurrentUser() actor: UserActor, @Granted() member: ResolvedAccess): Promise<void> {
    return this.members.remove(member.organizationId, member.id, actor.userId);
  }

  @Post('members/:userId/sso')
  @HttpCode(200)
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'setUserAsSSOMemberForOrganization',
    summary: 'Set a user as an SSO member of an organization',
  })
  @ApiOkResponse({ type: MemberResponse })
  async setSso(
    @Granted() access: ResolvedAccess,
    @Param('userId') userId: string,
  ): Promise<MemberResponse> {
    return this.presenter.present(await this.members.setSso(access.organizationId, userId));
  }

  @Post('ping')
  @HttpCode(200)
  @Access('organization', 'view')
  @ApiOperation({
    operationId: 'updateOrganizationMemberLastSeenAt',
    summary: 'Update an organization member last seen at',
    description: "Records the caller's activity and returns its visitor claims (a JWT).",
  })
  @ApiOkResponse({ type: PingResponse })
  async ping(
    @Granted() access: ResolvedAccess,
    @CurrentUser() actor: UserActor,
  ): Promise<PingResponse> {
    return { docsVisitorClaims: await this.members.ping(access, actor) };
  }
}
