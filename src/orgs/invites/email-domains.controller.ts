import { Controller, Get, Param } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import { OrganizationsPresenter } from '../organizations.presenter';
import { EmailDomainParamsDto, OrganizationsForEmailDomainResponse } from './dto/email-domain.dto';
import { InvitesService } from './invites.service';

/** GitBook's internal lookup of the organizations an email domain may join. */
@ApiTags('organizations')
@Controller('email-domains')
export class EmailDomainsController {
  constructor(
    private readonly invites: InvitesService,
    private readonly presenter: OrganizationsPresenter,
  ) {}

  @Get(':emailDomain/orgs')
  @Access.admin()
  @ApiOperation({
    operationId: 'getOrganizationsForEmailDomain',
    summary: 'Get all organizations by email domain',
    description:
      'Internal in GitBook, so only for the instance administrator token. The administrator ' +
      'is no member: organizations come with the permissions of a guest.',
  })
  @ApiOkResponse({ type: OrganizationsForEmailDomainResponse })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Not a domain name.' })
  async list(@Param() params: EmailDomainParamsDto): Promise<OrganizationsForEmailDomainResponse> {
    const organizations = await this.invites.organizationsForEmailDomain(params.emailDomain);
    return { organizations: organizations.map((o) => this.presenter.present(o, null)) };
  }
}
