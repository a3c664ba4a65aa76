import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { Access, CurrentUser, Granted } from '../platform/auth/access.decorator';
import type { UserActor } from '../platform/auth/actor';
import { ErrorBody } from '../platform/errors/error-body';
import type { ResolvedAccess } from '../platform/policy/access';
import { Organization } from '../orgs/entities/organization.entity';
import { InviteUsersDto, InviteUsersResponse } from './dto/invite-users.dto';
import { EmailInvitesPresenter } from './email-invites.presenter';
import { InvitesService } from './invites.service';

/** Adding members: invited by an admin, joining by email domain or with an invite link. */
@Controller('orgs/:organizationId')
export class InvitesController {
  constructor(
    private readonly invites: InvitesService,
    private readonly emailInvites: EmailInvitesPresenter,
  ) {}

  @Post('invites')
  @HttpCode(200)
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'inviteUsersToOrganization',
    summary: 'Invite users in an organization',
    description:
      'Adds the existing users with these addresses as members (role: their own, else `role`, ' +
      "else the organization's `defaultRole`). Members keep their membership and role. " +
      'An address of no user gets a pending invite (Bindery extension `pendingInvites`), ' +
      'emailed with a signed link that expires after EMAIL_INVITE_TTL_HOURS; inviting it again ' +
      'renews it. With email off, each pending invite carries its link (`url`) instead.',
  })
  @ApiOkResponse({ type: InviteUsersResponse })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid addresses or role.' })
  async inviteUsers(
    @CurrentUser() actor: UserActor,
    @Granted() access: ResolvedAccess<Organization>,
    @Body() body: InviteUsersDto,
  ): Promise<InviteUsersResponse> {
    const result = await this.invites.inviteUsers(
      access.entity as Organization,
      body,
      actor.userId,
    );
    return {
      users: result.users,
      invited: result.users.length + result.pendingInvites.length,
      pendingInvites: result.pendingInvites.map((invite) => this.emailInvites.present(invite)),
      emailSent: this.emailInvites.emailing,
    };
  }

  @Post('invites/:inviteId')
  @HttpCode(200)
  @Access.user()
  @ApiOperation({
    operationId: 'joinOrganizationWithInvite',
    summary: 'Join an organization with an invite',
    description:
      "Any user holding the invite link's id: a new member gets the invite's role, a member " +
      'with a lower role is raised to it. A space or collection invite makes a new member a ' +
      'guest and grants its level there (a higher grant stays). Needs `inviteLinks` on in ' +
      'the organization.',
  })
  @ApiOkResponse({ schema: { type: 'object', properties: {} } })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description: "Invite links are off, or the invite's space is in the trash.",
  })
  @ApiNotFoundResponse({ type: ErrorBody, description: 'No such organization or invite.' })
  async joinWithInvite(
    @CurrentUser() actor: UserActor,
    @Param('organizationId') organizationId: string,
    @Param('inviteId') inviteId: string,
  ): Promise<Record<string, never>> {
    await this.invites.joinWithInvite(actor.userId, organizationId, inviteId);
    return {};
  }

  @Post('join')
  @HttpCode(204)
  @Access.user()
  @ApiOperation({
    operationId: 'joinOrganization',
    summary: 'Join an organization',
    description:
      "Joins with the organization's `defaultRole` when the caller's email domain is one of " +
      'its `emailDomains`; a member stays as it is. An organization with `sso` on takes new ' +
      'members through its identity provider instead (403).',
  })
  @ApiForbiddenResponse({
    type: ErrorBody,
    description: 'The organization signs in with SSO, or the membership is disabled.',
  })
  @ApiNoContentResponse({ description: 'The caller is a member.' })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description: "The caller's email domain is not allowed.",
  })
  @ApiNotFoundResponse({ type: ErrorBody, description: 'No such organization.' })
  async join(
    @CurrentUser() actor: UserActor,
    @Param('organizationId') organizationId: string,
  ): Promise<void> {
    await this.invites.joinByEmailDomain(actor.user, organizationId);
  }
}
