import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, CurrentActor, Granted } from '../../platform/auth/access.decorator';
import type { Actor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { cacheTag, setCacheTags } from '../../platform/revalidation/cache-tags';
import { PublishedContentSiteResponse, PublishedSiteQueryDto } from './published-site.dto';
import type { PublishedSiteAccess } from './published-site-access';
import { PublishedSiteService } from './published-site.service';

@Controller('orgs/:organizationId/sites/:siteId/published')
export class PublishedSiteController {
  constructor(private readonly published: PublishedSiteService) {}

  /** Published sites reach beyond members: PublishedSiteAccessPolicy decides who sees one. */
  @Get()
  @Access('publishedSite', 'view', { param: 'siteId', siteReaders: true })
  @ApiOperation({
    operationId: 'getPublishedContentSite',
    summary: 'Get a published site',
    description:
      'The site, its structure, customizations and scripts, as a renderer needs them. Members ' +
      'read any site of their organization; anyone else a published `public` or `unlisted` ' +
      'site, or a published `share-link` site with `shareKey`. 404 otherwise, and for a ' +
      "`shareKey` that opens nothing. A site's token (`resolvePublishedContentByUrl`) reads " +
      'its own site, with only the sections and site spaces its visitor may see.',
  })
  @ApiOkResponse({ type: PublishedContentSiteResponse })
  @ApiNotFoundResponse({
    type: ErrorBody,
    description: 'No such site, not visible to the caller, or a share key that opens nothing.',
  })
  async get(
    @CurrentActor() actor: Actor,
    @Granted() site: PublishedSiteAccess,
    // Validated and documented here; the access policy reads the key.
    @Query() _query: PublishedSiteQueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<PublishedContentSiteResponse> {
    const published =
      actor.kind === 'siteReader'
        ? await this.published.getForReader(site.entity, actor)
        : await this.published.get(
            site.entity,
            actor.kind === 'user' ? actor.userId : '',
            site.role,
          );
    // The renderer caches the answer under the site's tag, and under its spaces' tags: each
    // site space carries its space's current revision, which a merge moves.
    setCacheTags(
      response,
      cacheTag.site(site.entity.id),
      ...spaceIdsOf(published.structure).map(cacheTag.space),
    );
    return published;
  }
}

/** The spaces a published structure shows. */
function spaceIdsOf(structure: PublishedContentSiteResponse['structure']): string[] {
  const ids = new Set<string>();
  const visit = (items: unknown[]): void => {
    for (const item of items as Record<string, unknown>[]) {
      const space = item.space as { id?: string } | undefined;
      if (item.object === 'site-space' && space?.id) ids.add(space.id);
      for (const key of ['siteSpaces', 'sections', 'children'] as const) {
        if (Array.isArray(item[key])) visit(item[key] as unknown[]);
      }
    }
  };
  visit(structure.structure as unknown[]);
  return [...ids];
}
