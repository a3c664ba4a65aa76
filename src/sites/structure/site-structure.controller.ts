import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  getSchemaPath,
} from '@nestjs/swagger';
import { Access, CurrentUser, Granted } from '../../platform/auth/access.decorator';
import type { UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { SITE_READ, SITE_WRITE } from '../site-access';
import type { SiteAccess } from '../site-access.policy';
import { SiteStructureQueryDto, SortSiteStructureDto } from './dto/site-structure.dto';
import {
  SiteExternalLinkResponse,
  SiteSectionGroupResponse,
  SiteSectionResponse,
  SiteSpaceResponse,
  SiteStructureResponse,
} from './dto/site-structure.response';
import { SiteStructurePresenter } from './site-structure.presenter';
import { SiteStructureService } from './site-structure.service';

const BASE = 'orgs/:organizationId/sites/:siteId/structure';

@ApiExtraModels(
  SiteSpaceResponse,
  SiteSectionResponse,
  SiteSectionGroupResponse,
  SiteExternalLinkResponse,
)
@Controller()
export class SiteStructureController {
  constructor(
    private readonly structure: SiteStructureService,
    private readonly presenter: SiteStructurePresenter,
  ) {}

  @Get(BASE)
  @Access('site', SITE_READ)
  @ApiOperation({
    operationId: 'getSiteStructure',
    summary: 'Get the structure of a site',
    description:
      'Its sections and section groups in order (`type: sections`), or for a site without ' +
      'sections its site spaces (`type: siteSpaces`).',
  })
  @ApiOkResponse({ type: SiteStructureResponse })
  async get(
    @CurrentUser() actor: UserActor,
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
    // shareKey is accepted and not needed by members.
    @Query() _query: SiteStructureQueryDto,
  ): Promise<SiteStructureResponse> {
    const view = await this.structure.get(site.organizationId, siteId, actor.userId);
    return this.presenter.structure(view);
  }

  @Patch(`${BASE}/sort`)
  @Access('site', SITE_WRITE)
  @ApiOperation({
    operationId: 'sortSiteStructure',
    summary: 'Sort the structure of a site',
    description:
      'Moves a site space among the site spaces of its section (or root), or a section, ' +
      'group or external link among the sections, groups and links of its parent; `position: {}` moves it to the end. ' +
      'Replaces the deprecated moves. 400 when the item or a pointer is not in the site, a ' +
      'pointer is not a sibling, or `before` and `after` are not next to each other.',
  })
  @ApiOkResponse({
    description: 'The moved item.',
    schema: {
      oneOf: [
        { $ref: getSchemaPath(SiteSpaceResponse) },
        { $ref: getSchemaPath(SiteSectionResponse) },
        { $ref: getSchemaPath(SiteSectionGroupResponse) },
        { $ref: getSchemaPath(SiteExternalLinkResponse) },
      ],
    },
  })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid item or position.' })
  async sort(
    @CurrentUser() actor: UserActor,
    @Granted() site: SiteAccess,
    @Param('siteId') siteId: string,
    @Body() body: SortSiteStructureDto,
  ): Promise<
    SiteSpaceResponse | SiteSectionResponse | SiteSectionGroupResponse | SiteExternalLinkResponse
  > {
    const { view, item } = await this.structure.sort(
      site.organizationId,
      siteId,
      actor.userId,
      body,
    );
    return this.presenter.item(view, item);
  }
}
