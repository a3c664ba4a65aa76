import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Organization } from '../orgs/entities/organization.entity';
import { entityFromRow } from '../platform/database/entity-from-row';
import { notFound } from '../platform/errors/domain-error';
import type { ResolvedAccess, ResourceType } from '../platform/policy/access';
import { type AccessContext, PolicyService } from '../platform/policy/policy.service';
import { Site } from './entities/site.entity';
import { type SiteChildTable, SitesRepository } from './sites.repository';
import { siteNotFound } from './sites.service';
import { siteRole } from './site-access';

declare module '../platform/policy/access' {
  interface ResourceTypes {
    /** A site of the route's organization. */
    site: true;
    /** A site space of the route's site. */
    siteSpace: true;
    /** A section of the route's site. */
    siteSection: true;
    /** A section group of the route's site. */
    siteSectionGroup: true;
    /** An external link of the route's site. */
    siteExternalLink: true;
    /** A share link of the route's site. */
    siteShareLink: true;
    /** A redirect of the route's site. */
    siteRedirect: true;
  }
}

/** A site, or something it holds, as its access sees it: the site and its organization. */
export interface SiteTarget {
  organization: Organization;
  site: Site;
}

/**
 * The caller's access to a site or to something it holds (`id` is that thing's): its role is
 * the higher of its organization role and the roles granted on the site to it or a team of its
 * (siteRole; site routes need `SITE_READ` or `SITE_WRITE`, site-access.ts).
 */
export type SiteAccess = ResolvedAccess<SiteTarget> & { entity: SiteTarget };

/** What a site holds, by resource type: its table, route parameter and name in messages. */
const CHILDREN: Partial<Record<ResourceType, { table: SiteChildTable; noun: string }>> = {
  siteSpace: { table: 'site_spaces', noun: 'site space' },
  siteSection: { table: 'site_sections', noun: 'site section' },
  siteSectionGroup: { table: 'site_section_groups', noun: 'site section group' },
  siteExternalLink: { table: 'site_external_links', noun: 'site external link' },
  siteShareLink: { table: 'site_share_links', noun: 'share link' },
  siteRedirect: { table: 'site_redirects', noun: 'site redirect' },
};

/**
 * The access policy of sites and of what they hold. A member of the organization (its role
 * there, raised by the grants on the site to it or its teams, is its role on them) sees the
 * organization's sites and, in a site, its own site spaces, sections, section groups, external
 * links, share links and redirects; the chain below the organization is read
 * in one statement. A missing site is its own 404 (`Site`) on a child's route.
 */
@Injectable()
export class SiteAccessPolicy implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly policy: PolicyService,
    private readonly sites: SitesRepository,
  ) {}

  onModuleInit(): void {
    this.policy.register('site', {
      resolver: { resolve: (userId, id, context) => this.resolve('site', userId, id, context!) },
    });
    for (const [resource, child] of Object.entries(CHILDREN)) {
      const type = resource as ResourceType;
      this.policy.register(type, {
        resolver: { resolve: (userId, id, context) => this.resolve(type, userId, id, context!) },
        noun: child!.noun,
      });
    }
  }

  private async resolve(
    resource: ResourceType,
    userId: string,
    id: string,
    context: AccessContext,
  ): Promise<SiteAccess | null> {
    const organization = (await context.parent(
      'organization',
      context.params.organizationId,
    )) as ResolvedAccess<Organization> | null;
    if (!organization) throw notFound('Organization');
    const child = CHILDREN[resource];
    const siteId = child ? context.params.siteId : id;
    const row = await this.sites.accessRow(
      organization.id,
      siteId,
      userId,
      child ? { table: child.table, id } : null,
    );
    if (!row) {
      if (child) throw siteNotFound();
      return null;
    }
    if (child && !row.child_found) return null;
    const site = entityFromRow(this.dataSource, Site, row);
    return {
      resource,
      id,
      organizationId: organization.id,
      siteId: site.id,
      role: siteRole(organization.role, row.grant_roles),
      entity: { organization: organization.entity as Organization, site },
    };
  }
}
