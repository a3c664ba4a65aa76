import { Controller, Delete, Get, HttpCode, Param, Patch, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, CurrentActor } from '../../platform/auth/access.decorator';
import type { AdminActor, UserActor } from '../../platform/auth/actor';
import { invalidInput } from '../../platform/errors/domain-error';
import { ErrorBody } from '../../platform/errors/error-body';
import { SITE_HOSTNAME_PATTERN } from '../dto/site.dto';
import { CustomHostnamesPresenter } from './custom-hostnames.presenter';
import { CustomHostnamesService } from './custom-hostnames.service';
import { CustomHostnameResponse } from './dto/custom-hostname.response';

const WHO =
  'GitBook keeps this operation for its staff; in Bindery the instance administrator and the ' +
  'admins of the organization whose site the hostname serves call it (404 to anyone else who ' +
  'does not see that site, 403 to its members without the admin role).';

const hostnameParam = ApiParam({
  name: 'hostname',
  description: 'The custom hostname, for example "docs.example.com" (case does not matter).',
  schema: { type: 'string', maxLength: 512 },
});
const badHostname = ApiBadRequestResponse({
  type: ErrorBody,
  description: 'Not a hostname a site may have.',
});

/** The hostname of the path, lower-cased; 400 when no site could have it. */
function parseHostname(value: string): string {
  const hostname = value.toLowerCase();
  if (hostname.length > 512 || !SITE_HOSTNAME_PATTERN.test(hostname)) {
    throw invalidInput(
      'hostname must have at least three dot-separated labels of letters, digits and inner hyphens, each at most 63 characters',
    );
  }
  return hostname;
}

@Controller('custom-hostnames')
export class CustomHostnamesController {
  constructor(
    private readonly hostnames: CustomHostnamesService,
    private readonly presenter: CustomHostnamesPresenter,
  ) {}

  @Get(':hostname')
  @Access.userOrAdmin()
  @hostnameParam
  @ApiOperation({
    operationId: 'getCustomHostname',
    summary: 'Get a custom hostname',
    description:
      "A site's custom hostname, its site and the last check of its DNS: the published lookup " +
      'serves the site there only while it is `live` (`isActive`). ' +
      WHO,
  })
  @ApiOkResponse({ type: CustomHostnameResponse })
  @badHostname
  async get(
    @CurrentActor() caller: UserActor | AdminActor,
    @Param('hostname') hostname: string,
  ): Promise<CustomHostnameResponse> {
    return this.presenter.present(await this.hostnames.find(caller, parseHostname(hostname)));
  }

  @Patch(':hostname')
  @HttpCode(204)
  @Access.userOrAdmin()
  @hostnameParam
  @ApiOperation({
    operationId: 'dnsRevalidateCustomHostname',
    summary: 'Revalidate a custom hostname DNS',
    description:
      "Checks the hostname's DNS now (a CNAME to CUSTOM_HOSTNAME_CNAME_TARGET, or the TXT " +
      'record `bindery-site=<siteId>` at `_bindery.<hostname>`) and records the result, which ' +
      'getCustomHostname then shows; the published lookup hears of a change at once. A live ' +
      'hostname stays live when the DNS servers do not answer. ' +
      WHO,
  })
  @ApiNoContentResponse({ description: 'The DNS was checked.' })
  @badHostname
  async revalidate(
    @CurrentActor() caller: UserActor | AdminActor,
    @Param('hostname') hostname: string,
  ): Promise<void> {
    await this.hostnames.revalidate(caller, parseHostname(hostname));
  }

  @Delete(':hostname')
  @HttpCode(204)
  @Access.userOrAdmin()
  @hostnameParam
  @ApiOperation({
    operationId: 'removeCustomHostname',
    summary: 'Remove a custom hostname',
    description:
      'Takes the hostname off its site (as updateSite with `hostname: null`): the published ' +
      'lookup no longer serves the site there, and another site may take it. 205 when it was ' +
      'removed; 204 when no site has it (or the caller does not see the one that does). ' +
      WHO,
  })
  @ApiResponse({ status: 205, description: 'Custom hostname removed.' })
  @ApiNoContentResponse({ description: 'No site had this custom hostname.' })
  @badHostname
  async remove(
    @CurrentActor() caller: UserActor | AdminActor,
    @Param('hostname') hostname: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    if (await this.hostnames.remove(caller, parseHostname(hostname))) response.status(205);
  }
}
