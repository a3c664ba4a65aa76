import { HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiCreatedResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, CurrentUser, Granted } from '../../platform/auth/access.decorator';
import type { UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { UrlBuilder } from '../../platform/urls/url-builder';
import { BodyOf } from '../../platform/validation/typed-params';
import { SITE_WRITE } from '../site-access';
import type { SiteAccess } from '../site-access.policy';
import {
  AddSiteSpaceDto,
  DuplicateSiteSpaceDto,
  ListSiteSpacesQueryDto,
  MoveSiteSpaceDto,
  UpdateSiteSpaceDto,
} from './dto/site-space.dto';
import { SiteSpaceResponse } from './dto/site-structure.response';
import { SiteSpacesService } from './site-spaces.service';
import { SiteStructurePresenter } from './site-structure.presenter';
import { StructureNodeController } from './structure-node.controller';

export class SiteSpacesController extends StructureNodeController({
  segment: 'site-spaces',
  namesSpace: ['add', 'update'],
  resource: 'siteSpace',
  param: 'siteSpaceId',
  tag: 'site-spaces',
  service: SiteSpacesService,
  response: SiteSpaceResponse,
  classes: {
    list: ListSiteSpacesQueryDto,
    add: AddSiteSpaceDto,
    update: UpdateSiteSpaceDto,
    move: MoveSiteSpaceDto,
  },
  operations: {
    list: {
      operationId: 'listSiteSpaces',
      summary: 'List all site spaces',
      description:
        "The site spaces of the site, in the order a reader meets them (the root's, then each section's, as moves and sorts set it); `default` keeps only the " +
        'defaults (of the root, or of each section) or only the others.',
    },
    add: {
      operationId: 'addSpaceToSite',
      summary: 'Add a space to a site',
      description:
        'To `sectionId`, else to the default section, else (a site without sections) at the ' +
        "root; at the end, with a path from the space's title. The first site space of a " +
        'section (or of the root) is its default. 400 when the space or section is not in the ' +
        'organization or site.',
    },
    update: {
      operationId: 'updateSiteSpaceById',
      summary: 'Update a site space',
      description:
        'Absent fields are unchanged; `condition: null` removes the condition. 409 when `path` ' +
        'is the path of a sibling (same section, or the root).',
    },
    remove: {
      operationId: 'deleteSiteSpaceById',
      summary: 'Delete a site space',
      description:
        'Also 204 when there is no such site space. Deleting the default makes the next ' +
        'sibling the default.',
    },
    move: {
      operationId: 'moveSiteSpace',
      summary: 'Move a site space',
      description:
        'Among the site spaces of its section (or root); the end without `position`. ' +
        'Deprecated: use `sortSiteStructure`.',
    },
  },
  answers: {
    removed: 'The site space is gone.',
    pathTaken: 'The path is taken by a sibling.',
    badMove: 'Invalid move position.',
  },
  present: (presenter, { view, node }) => presenter.siteSpace(view, node),
}) {
  constructor(
    private readonly siteSpaces: SiteSpacesService,
    presenter: SiteStructurePresenter,
    urls: UrlBuilder,
  ) {
    super(siteSpaces, presenter, urls);
  }

  @Post('orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/duplicate')
  @HttpCode(201)
  @Access('siteSpace', SITE_WRITE, { param: 'siteSpaceId', reaches: 'organization' })
  @ApiOperation({
    operationId: 'duplicateSiteSpace',
    summary: 'Duplicate a space in a site',
    description:
      "A copy of the site space's space (as `duplicateSpace`: same content and settings, " +
      'next to it, titled "… (copy)"; the create role where it goes), shown by a new site ' +
      'space right after the source, with its condition. The only variant of a section is ' +
      'copied into a new section right after that one; otherwise the copy is a variant of the ' +
      'same section (or of the root). Bindery has no drafts: `draft: true` is 400.',
  })
  @ApiCreatedResponse({ type: SiteSpaceResponse })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' })
  async duplicate(
    @CurrentUser() actor: UserActor,
    @Granted() site: SiteAccess,
    @Param('siteSpaceId') siteSpaceId: string,
    @BodyOf(DuplicateSiteSpaceDto) body: DuplicateSiteSpaceDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SiteSpaceResponse> {
    const { view, node } = await this.siteSpaces.duplicate(
      site.organizationId,
      site.siteId!,
      actor.userId,
      siteSpaceId,
      body?.draft ?? false,
    );
    response.location(
      this.urls.api('orgs', site.organizationId, 'sites', site.siteId!, 'site-spaces', node.id),
    );
    return this.presenter.siteSpace(view, node);
  }
}
