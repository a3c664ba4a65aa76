import { Controller, Delete, Headers, HttpCode, Param, Patch, Post, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiResetContentResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, CurrentUser, Granted } from '../../platform/auth/access.decorator';
import type { UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { UrlBuilder } from '../../platform/urls/url-builder';
import { BodyOf } from '../../platform/validation/typed-params';
import { SITE_WRITE } from '../site-access';
import type { SiteAccess } from '../site-access.policy';
import { AddSiteExternalLinkDto, UpdateSiteExternalLinkDto } from './dto/site-external-link.dto';
import { SiteExternalLinkResponse } from './dto/site-structure.response';
import { SiteExternalLinksService } from './site-external-links.service';
import { SiteStructurePresenter } from './site-structure.presenter';

const BASE = 'orgs/:organizationId/sites/:siteId/external-links';

/**
 * Whether a `Prefer` header (RFC 7240) asks for no representation (`return=minimal`), as
 * GitBook's `returnPreference` parameter allows; the representation otherwise.
 */
function prefersMinimal(prefer: string | undefined): boolean {
  return (prefer ?? '')
    .split(',')
    .some(
      (preference) =>
        preference.split(';')[0].replace(/\s/g, '').toLowerCase() === 'return=minimal',
    );
}

/** The external links of a site's navigation (SiteExternalLinksService). */
@Controller()
export class SiteExternalLinksController {
  constructor(
    private readonly links: SiteExternalLinksService,
    private readonly presenter: SiteStructurePresenter,
    private readonly urls: UrlBuilder,
  ) {}

  @Post(BASE)
  @HttpCode(201)
  @Access('site', SITE_WRITE)
  @ApiOperation({
    operationId: 'addExternalLinkToSite',
    summary: "Add an external link to a site's navigation",
    description:
      'At the end of `parent` (a section group; the site root when absent), among the ' +
      'sections and groups there; `sortSiteStructure` moves it. 400 when the site has no ' +
      'sections, or `parent` is not a group of the site. A draft link, or one whose condition ' +
      "a visitor does not meet, is absent from the published site's structure.",
  })
  @ApiCreatedResponse({ type: SiteExternalLinkResponse })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description: 'The site has a simple structure, or the parent group is invalid.',
  })
  async add(
    @CurrentUser() actor: UserActor,
    @Granted() site: SiteAccess,
    @BodyOf(AddSiteExternalLinkDto) body: AddSiteExternalLinkDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SiteExternalLinkResponse> {
    const { node } = await this.links.add(site.organizationId, site.siteId!, actor.userId, body);
    response.location(
      this.urls.api('orgs', site.organizationId, 'sites', site.siteId!, 'external-links', node.id),
    );
    return this.presenter.externalLink(node);
  }

  @Patch(`${BASE}/:siteExternalLinkId`)
  @Access('siteExternalLink', SITE_WRITE, 'siteExternalLinkId')
  @ApiOperation({
    operationId: 'updateSiteExternalLinkById',
    summary: "Update an external link in a site's navigation",
    description:
      'Absent fields are unchanged; null removes `description`, `icon`, `condition` and the ' +
      'localized texts. `parent` moves the link to the end of that section group, null to the ' +
      'end of the site root. `Prefer: return=minimal` answers 204 instead of the link.',
  })
  @ApiHeader({
    name: 'Prefer',
    required: false,
    enum: ['return=minimal', 'return=representation'],
    description: '`return=minimal` answers 204 without the link.',
  })
  @ApiOkResponse({ type: SiteExternalLinkResponse })
  @ApiNoContentResponse({ description: 'Updated, with `Prefer: return=minimal`.' })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description: 'The parent group or destination URL is invalid.',
  })
  async update(
    @CurrentUser() actor: UserActor,
    @Granted() site: SiteAccess,
    @Param('siteExternalLinkId') id: string,
    @BodyOf(UpdateSiteExternalLinkDto) body: UpdateSiteExternalLinkDto,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SiteExternalLinkResponse | void> {
    const { node } = await this.links.update(
      site.organizationId,
      site.siteId!,
      actor.userId,
      id,
      body,
    );
    if (prefersMinimal(prefer)) {
      response.status(204).setHeader('Preference-Applied', 'return=minimal');
      return;
    }
    return this.presenter.externalLink(node);
  }

  @Delete(`${BASE}/:siteExternalLinkId`)
  @HttpCode(204)
  @Access('site', SITE_WRITE)
  @ApiOperation({
    operationId: 'deleteSiteExternalLinkById',
    summary: "Delete an external link from a site's navigation",
    description: '205 when the link was deleted, 204 when there was no such link.',
  })
  @ApiResetContentResponse({ description: 'The link has been deleted.' })
  @ApiNoContentResponse({ description: 'There was no such link.' })
  async remove(
    @Granted() site: SiteAccess,
    @Param('siteExternalLinkId') id: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    const deleted = await this.links.delete(site.organizationId, site.siteId!, id);
    if (deleted) response.status(205);
  }
}
