import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Organization } from '../../orgs/entities/organization.entity';
import type { SiteReaderActor } from '../../platform/auth/actor';
import type { VisitorClaims } from '../../platform/conditions/evaluate';
import { entityFromRow } from '../../platform/database/entity-from-row';
import { notFound } from '../../platform/errors/domain-error';
import type { ResolvedAccess } from '../../platform/policy/access';
import { type AccessContext, PolicyService } from '../../platform/policy/policy.service';
import { Space } from '../../spaces/entities/space.entity';
import type { SpaceAccess } from '../../spaces/space-access.resolver';
import type { UserAccess } from '../../users/user-access.policy';
import { UsersService } from '../../users/users.service';
import { Site } from '../entities/site.entity';
import type { SiteAccess } from '../site-access.policy';
import { PublishedContentRepository } from './published-content.repository';
import type { PublishedSiteAccess } from './published-site-access';

/** The visitor whose claims a site reader carries: what adaptive conditions are evaluated on. */
export function readerVisitor(reader: SiteReaderActor): VisitorClaims {
  return { claims: reader.claims } as VisitorClaims;
}

/**
 * What a site reader (a published site's token) may read, on the routes that admit site
 * readers: its own site (its published profile, redirects, search) while the site is still
 * published to it, and the live spaces that site publishes and its visitor may see (the token
 * lists them), at their current revision or one that was current a few merges ago (a
 * renderer's cache may still name it): change requests' revisions and older history are not
 * published content; and the members of the site's organization (user mentions). Everything
 * else is absent (404). A reader holds no role.
 */
@Injectable()
export class SiteReaderAccess implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly policy: PolicyService,
    private readonly repository: PublishedContentRepository,
    private readonly users: UsersService,
  ) {}

  onModuleInit(): void {
    this.policy.admitSiteReaders('publishedSite', (reader, siteId, context) =>
      this.publishedSite(reader, siteId, context),
    );
    this.policy.admitSiteReaders('site', (reader, siteId, context) =>
      this.site(reader, siteId, context),
    );
    const space = (reader: SiteReaderActor, spaceId: string, context: AccessContext) =>
      this.space(reader, spaceId, context);
    this.policy.admitSiteReaders('space', space);
    this.policy.admitSiteReaders('spaceIncludingDeleted', space);
    this.policy.admitSiteReaders('user', (reader, userId) => this.user(reader, userId));
  }

  /** A member of the site's organization (a mention in its content), while the site is open. */
  private async user(reader: SiteReaderActor, userId: string): Promise<UserAccess | null> {
    if (!(await this.repository.readerSite(reader))) return null;
    const user = await this.users.findMemberOf(reader.organizationId, userId);
    if (!user) return null;
    return {
      resource: 'user',
      id: user.id,
      organizationId: reader.organizationId,
      role: null,
      entity: user,
    };
  }

  private async readerSite(
    reader: SiteReaderActor,
    siteId: string,
    context: AccessContext,
  ): Promise<Site | null> {
    if (siteId !== reader.siteId || context.params.organizationId !== reader.organizationId)
      return null;
    const row = await this.repository.readerSite(reader);
    return row ? entityFromRow(this.dataSource, Site, row) : null;
  }

  private async publishedSite(
    reader: SiteReaderActor,
    siteId: string,
    context: AccessContext,
  ): Promise<PublishedSiteAccess | null> {
    const site = await this.readerSite(reader, siteId, context);
    if (!site) return null;
    return {
      resource: 'publishedSite',
      id: site.id,
      organizationId: site.organizationId,
      role: null,
      entity: site,
    };
  }

  private async site(
    reader: SiteReaderActor,
    siteId: string,
    context: AccessContext,
  ): Promise<SiteAccess | null> {
    const site = await this.readerSite(reader, siteId, context);
    if (!site) return null;
    const organization = await this.dataSource.manager.findOneBy(Organization, {
      id: site.organizationId,
    });
    if (!organization) return null;
    return {
      resource: 'site',
      id: site.id,
      organizationId: site.organizationId,
      role: null,
      entity: { organization, site },
    };
  }

  private async space(
    reader: SiteReaderActor,
    spaceId: string,
    context: AccessContext,
  ): Promise<SpaceAccess | null> {
    if (!reader.spaceIds.has(spaceId)) return null;
    const row = await this.repository.readerSpace(reader, spaceId);
    if (!row) return null;
    const space = entityFromRow(this.dataSource, Space, row);
    const revisionId = context.params.revisionId;
    if (
      revisionId !== undefined &&
      revisionId !== space.revisionId &&
      !(await this.repository.wasRecentlyPrimary(space.id, space.revisionId, revisionId))
    )
      throw notFound('Revision');
    const access: ResolvedAccess<Space> & { entity: Space } = {
      resource: 'space',
      id: space.id,
      organizationId: space.organizationId,
      role: null,
      entity: space,
      visitor: readerVisitor(reader),
    };
    return access;
  }
}
