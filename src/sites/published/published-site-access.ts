import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { entityFromRow } from '../../platform/database/entity-from-row';
import { sha256Hex } from '../../platform/ids/ids';
import type { ResolvedAccess } from '../../platform/policy/access';
import { type AccessContext, PolicyService } from '../../platform/policy/policy.service';
import { atLeast } from '../../platform/policy/roles';
import { Site } from '../entities/site.entity';
import { SITE_READ, siteRole } from '../site-access';
import { SitesRepository } from '../sites.repository';

declare module '../../platform/policy/access' {
  interface ResourceTypes {
    /** A site as its published face shows it: to members, and to readers it is open to. */
    publishedSite: true;
  }
}

/** Visibilities a published site has for anyone with a token, member or not. */
const OPEN_VISIBILITIES = new Set<Site['visibility']>(['public', 'unlisted']);

export type PublishedSiteAccess = ResolvedAccess<Site> & { entity: Site };

/**
 * Who sees a site's published face (`getPublishedContentSite`). Members with a role see any
 * site of their organization, published or not (a preview), as do members (guests too) granted
 * a role on the site itself or through a team (`inviteToSite`). Anyone else (guests, other users)
 * sees only a published site that is `public` or `unlisted`, or `share-link` with the key
 * (`?shareKey=`) of an active share link; otherwise 404. A `shareKey` that opens nothing is 404
 * for everyone. `visitor-auth` sites need a visitor token, which this route does not take: 404
 * for non-members. Read in one statement.
 */
@Injectable()
export class PublishedSiteAccessPolicy implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly policy: PolicyService,
    private readonly sites: SitesRepository,
  ) {}

  onModuleInit(): void {
    this.policy.register('publishedSite', {
      resolver: { resolve: (userId, siteId, context) => this.resolve(userId, siteId, context!) },
      noun: 'site',
    });
  }

  private async resolve(
    userId: string,
    siteId: string,
    context: AccessContext,
  ): Promise<PublishedSiteAccess | null> {
    const shareKey = context.query.shareKey;
    const row = await this.sites.publishedAccessRow(
      context.params.organizationId,
      siteId,
      userId,
      typeof shareKey === 'string' ? sha256Hex(shareKey) : null,
    );
    if (!row) return null;
    if (shareKey !== undefined && !row.share_key_opens) return null;
    const site = entityFromRow(this.dataSource, Site, row);
    const role = row.caller_is_member ? siteRole(row.caller_role, row.grant_roles) : null;
    const visible =
      atLeast(role, SITE_READ) ||
      (site.published &&
        (OPEN_VISIBILITIES.has(site.visibility) ||
          (site.visibility === 'share-link' && row.share_key_opens)));
    if (!visible) return null;
    return {
      resource: 'publishedSite',
      id: site.id,
      organizationId: site.organizationId,
      siteId: site.id,
      role,
      entity: site,
    };
  }
}
