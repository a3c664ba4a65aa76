import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, CurrentActor, Granted } from '../../platform/auth/access.decorator';
import type { Actor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { mapPage, Page, PageOf } from '../../platform/pagination/page';
import { LargeBody } from '../../platform/validation/request-body';
import { SITE_READ, SITE_WRITE } from '../site-access';
import type { SiteAccess } from '../site-access.policy';
import { SitesPresenter } from '../sites.presenter';
import {
  BulkUpsertSiteRedirectsDto,
  CreateSiteRedirectDto,
  ListSiteRedirectsQueryDto,
  SiteRedirectBySourceQueryDto,
  UpdateSiteRedirectDto,
} from './dto/site-redirect.dto';
import {
  BulkUpsertSiteRedirectsResponse,
  SiteRedirectBySourceResponse,
  SiteRedirectResponse,
} from './dto/site-redirect.response';
import { SiteRedirectsPresenter } from './site-redirects.presenter';
import { SiteRedirectsService } from './site-redirects.service';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });
const sourceTaken = ApiConflictResponse({
  type: ErrorBody,
  description: 'The site already has a redirect (live, or draft) from that source.',
});

/**
 * A site's redirects, which its published site follows for paths that match no page. Reading
 * them takes the role that reads the site; writing them, the role that changes it.
 */
@Controller('orgs/:organizationId/sites/:siteId')
export class SiteRedirectsController {
  constructor(
    private readonly redirects: SiteRedirectsService,
    private readonly presenter: SiteRedirectsPresenter,
    private readonly sites: SitesPresenter,
  ) {}

  @Get('redirects')
  @Access('site', SITE_READ)
  @ApiOperation({
    operationId: 'listSiteRedirects',
    summary: 'List all URL redirect rules configured for a site',
    description:
      'The live redirects (`draft=true`: the drafts), newest first unless `orderBy` says ' +
      'otherwise; `search` keeps those whose source contains the text (case-insensitive).',
  })
  @ApiOkResponse({ type: PageOf(SiteRedirectResponse) })
  @badRequest
  async list(
    @Granted() access: SiteAccess,
    @Query() query: ListSiteRedirectsQueryDto,
  ): Promise<Page<SiteRedirectResponse>> {
    const page = await this.redirects.list(access.entity.site, query);
    return mapPage(page, (redirect) => this.presenter.present(redirect));
  }

  @Post('redirects')
  @HttpCode(201)
  @Access('site', SITE_WRITE)
  @ApiOperation({
    operationId: 'createSiteRedirect',
    summary: 'Create a URL redirect rule for a site',
    description:
      'Sends visitors of `source` to a section, site space or page of the site, or an external ' +
      'URL (`kind: path` names a page of a space the site publishes by its path; it is kept as ' +
      'a `site-page`). 409 when the site has a redirect from that source already.',
  })
  @ApiCreatedResponse({ type: SiteRedirectResponse })
  @badRequest
  @sourceTaken
  async create(
    @Granted() access: SiteAccess,
    @Body() body: CreateSiteRedirectDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SiteRedirectResponse> {
    const { site, organization } = access.entity;
    const redirect = await this.redirects.create(site, organization, body);
    response.location(`${this.sites.location(site)}/redirects/${encodeURIComponent(redirect.id)}`);
    return this.presenter.present(redirect);
  }

  @Put('redirects')
  @Access('site', SITE_WRITE)
  @LargeBody()
  @ApiOperation({
    operationId: 'bulkUpsertSiteRedirects',
    summary: 'Create, update, delete, or publish site redirect rules in bulk',
    description:
      'Up to 500 items, in order, each on its own: `intent: live` (the default) or `draft` ' +
      'writes the live or draft redirect of its source (`destination: null` deletes it), ' +
      '`intent: publish` makes the draft of its source live in place of the live one. An item ' +
      'that cannot be processed is answered `status: error` and changes nothing.',
  })
  @ApiOkResponse({ type: BulkUpsertSiteRedirectsResponse })
  @badRequest
  async bulkUpsert(
    @Granted() access: SiteAccess,
    @Body() body: BulkUpsertSiteRedirectsDto,
  ): Promise<BulkUpsertSiteRedirectsResponse> {
    const { site, organization } = access.entity;
    return { results: await this.redirects.bulkUpsert(site, organization, body.redirects) };
  }

  @Patch('redirects/:siteRedirectId')
  @Access('siteRedirect', SITE_WRITE, { param: 'siteRedirectId' })
  @ApiOperation({
    operationId: 'updateSiteRedirectById',
    summary: 'Update a URL redirect rule for a site',
    description:
      'Changes the fields given (at least one). `draft: false` makes a draft live, replacing ' +
      'the live redirect of its source; any other clash of sources is 409.',
  })
  @ApiOkResponse({ type: SiteRedirectResponse })
  @badRequest
  @sourceTaken
  async update(
    @Granted() access: SiteAccess,
    @Param('siteRedirectId') siteRedirectId: string,
    @Body() body: UpdateSiteRedirectDto,
  ): Promise<SiteRedirectResponse> {
    const { site, organization } = access.entity;
    const redirect = await this.redirects.update(site, organization, siteRedirectId, body);
    return this.presenter.present(redirect);
  }

  @Delete('redirects/:siteRedirectId')
  @HttpCode(204)
  @Access('siteRedirect', SITE_WRITE, { param: 'siteRedirectId', ifAbsent: 'proceed' })
  @ApiOperation({
    operationId: 'deleteSiteRedirectById',
    summary: 'Delete a site redirect',
    description: '205 when the redirect was deleted, 204 when the site had no such redirect.',
  })
  @ApiResponse({ status: 205, description: 'Site redirect deleted.' })
  @ApiNoContentResponse({ description: 'Site redirect did not exist.' })
  async remove(
    @Granted() access: SiteAccess | null,
    @Param('siteRedirectId') siteRedirectId: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    if (!access) return;
    if (await this.redirects.remove(access.entity.site, siteRedirectId)) response.status(205);
  }

  @Get('redirect')
  @Access('site', SITE_READ, { param: 'siteId', siteReaders: true })
  @ApiOperation({
    operationId: 'getSiteRedirectBySource',
    summary: 'Resolve a site redirect rule by its source path',
    description:
      'The live redirect of `source` (compared whatever its case and escapes), else the ' +
      'longest live wildcard it falls under, with the absolute URL it sends to. 404 when there ' +
      'is none, or when the section, site space or page it names is gone (or, for a site ' +
      'token, hidden from its visitor).',
  })
  @ApiOkResponse({ type: SiteRedirectBySourceResponse })
  @badRequest
  async getBySource(
    @CurrentActor() actor: Actor,
    @Granted() access: SiteAccess,
    // With the key of a share link, targets are under the share link's URL.
    @Query() query: SiteRedirectBySourceQueryDto,
  ): Promise<SiteRedirectBySourceResponse> {
    const { site, organization } = access.entity;
    const { redirect, target } = await this.redirects.resolve(
      site,
      organization,
      query.source,
      query.shareKey,
      actor.kind === 'siteReader' ? actor : undefined,
    );
    return { redirect: this.presenter.present(redirect), target };
  }
}
