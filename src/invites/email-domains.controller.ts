import { Controller, Get, Param } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Access, CurrentActor } from '../platform/auth/access.decorator';
import type { Actor } from '../platform/auth/actor';
import { ErrorBody } from '../platform/errors/error-body';
import { OrganizationsPresenter } from '../orgs/organizations.presenter';
import { EmailDomainParamsDto, OrganizationsForEmailDomainResponse } from './dto/email-domain.dto';
import { InvitesService } from './invites.service';

/** GitBook's internal lookup of the organizations an email domain may join. */
@Controller('email-domains')
export class EmailDomainsController {
  constructor(
    private readonly invites: InvitesService,
    private readonly presenter: OrganizationsPresenter,
  ) {}

  @Get(':emailDomain/orgs')
  @Access.userOrAdmin()
  @ApiOperation({
    operationId: 'getOrganizationsForEmailDomain',
    summary: 'Get all organizations by email domain',
    description:
      'The organizations a user of the domain may join. A user whose own email address is at ' +
      'that domain gets them; any other user gets an empty list (nothing is told of a domain ' +
      'not theirs); the instance administrator gets them for any domain. The caller need not ' +
      'be a member: organizations come with the permissions of a guest.',
  })
  @ApiOkResponse({ type: OrganizationsForEmailDomainResponse })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Not a domain name.' })
  async list(
    @CurrentActor() actor: Actor,
    @Param() params: EmailDomainParamsDto,
  ): Promise<OrganizationsForEmailDomainResponse> {
    const organizations = await this.invites.organizationsForEmailDomain(actor, params.emailDomain);
    return { organizations: organizations.map((o) => this.presenter.present(o, null)) };
  }
}
