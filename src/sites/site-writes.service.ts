import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, Not, QueryFailedError } from 'typeorm';
import { ContentGrantsRepository } from '../collections/grants/content-grants.repository';
import { Clock } from '../platform/clock/clock';
import { EventOutbox, userActor } from '../platform/events/event-outbox';
import { DomainError } from '../platform/errors/domain-error';
import { OrganizationsRepository } from '../orgs/organizations.repository';
import { newId } from '../platform/ids/ids';
import { cacheTag } from '../platform/revalidation/cache-tags';
import { Revalidation } from '../platform/revalidation/revalidation.service';
import { CreateSiteDto, UpdateSiteDto } from './dto/site.dto';
import { Site } from './entities/site.entity';
import { type SiteOrganization, SitesPresenter } from './sites.presenter';
import { SitesRepository } from './sites.repository';
import { SitesService, SiteWithCount } from './sites.service';
import { SiteStructureRepository } from './structure/site-structure.repository';
import { SiteStructureService } from './structure/site-structure.service';
import { HostnameDns, statusAfterCheck } from './custom-hostnames/hostname-dns';

const hostnameTaken = (hostname: string) =>
  new DomainError(
    'conflict',
    'SiteHostnameTaken',
    `hostname already taken: another site uses "${hostname}".`,
  );

/**
 * Creating, changing, publishing and deleting sites. Site spaces and defaults are the
 * structure's: this service asks SiteStructureService for them, in its own transaction. Each
 * change of an existing site asks the renderer to revalidate it, in the same transaction.
 */
@Injectable()
export class SiteWritesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sites: SitesService,
    private readonly sitesRepository: SitesRepository,
    private readonly structure: SiteStructureService,
    private readonly clock: Clock,
    private readonly organizations: OrganizationsRepository,
    private readonly structureRepository: SiteStructureRepository,
    private readonly grants: ContentGrantsRepository,
    private readonly revalidation: Revalidation,
    private readonly outbox: EventOutbox,
    private readonly presenter: SitesPresenter,
    private readonly hostnameDns: HostnameDns,
  ) {}

  /**
   * A new, unpublished site; each of `spaces` (live spaces of the organization, else 400)
   * becomes a site space at its root, in order, the first the default.
   */
  create(organizationId: string, input: CreateSiteDto): Promise<SiteWithCount> {
    return this.dataSource.transaction(async (tx) => {
      const now = this.clock.now();
      const site = tx.create(Site, {
        id: newId(),
        organizationId,
        type: input.type ?? 'basic',
        title: input.title ?? 'Untitled site',
        visibility: input.visibility ?? 'public',
        published: false,
        hostname: null,
        hostnameStatus: null,
        hostnameCheckedAt: null,
        basename: null,
        proxy: null,
        icon: null,
        adaptiveContent: false,
        agentsContext: 'included',
        defaultSiteSectionId: null,
        defaultSiteSpaceId: null,
        adaptiveSchema: null,
        adaptiveSchemaUpdatedAt: null,
        customization: null,
        siteSpaceCustomizations: {},
        createdAt: now,
        updatedAt: now,
      });
      await tx.insert(Site, site);
      await this.structure.addInitialSiteSpaces(tx, site, input.spaces ?? []);
      return this.sites.withCount(tx, await tx.findOneByOrFail(Site, { id: site.id }));
    });
  }

  /**
   * Applies the fields present in `input` (absent = unchanged; null clears `proxy`, `hostname`
   * and `icon`) and returns the site as stored. An empty update changes nothing.
   */
  async update(
    organizationId: string,
    siteId: string,
    input: UpdateSiteDto,
  ): Promise<SiteWithCount> {
    // A hostname's DNS is checked before the transaction: no connection waits for the DNS.
    const checked = input.hostname
      ? { status: await this.hostnameDns.check(input.hostname, siteId), at: this.clock.now() }
      : null;
    return this.dataSource.transaction(async (tx) => {
      const site = await this.sites.findForOrganization(tx, organizationId, siteId);
      const changes: Partial<Site> = {};
      if (input.title !== undefined) changes.title = input.title;
      if (input.visibility !== undefined) changes.visibility = input.visibility;
      if (input.basename !== undefined) changes.basename = input.basename;
      if (input.adaptiveContent !== undefined) {
        changes.adaptiveContent = input.adaptiveContent.enabled;
      }
      if (input.agentsContext !== undefined) changes.agentsContext = input.agentsContext;
      if (input.proxy !== undefined) changes.proxy = input.proxy;
      if (input.icon !== undefined) changes.icon = input.icon;
      if (input.hostname !== undefined) {
        if (input.hostname !== null) await this.assertHostnameFree(tx, site.id, input.hostname);
        changes.hostname = input.hostname;
        // The published lookup honours the hostname once its DNS points here (HostnameDns).
        changes.hostnameStatus = checked
          ? statusAfterCheck(
              site.hostname === input.hostname ? site.hostnameStatus : null,
              checked.status,
            )
          : null;
        changes.hostnameCheckedAt = checked?.at ?? null;
      }
      // The section first: `defaultSiteSpace` may name a variant of the new default section.
      if (input.defaultSiteSection !== undefined) {
        await this.structure.setDefaultSection(tx, site, input.defaultSiteSection);
      }
      if (input.defaultSiteSpace !== undefined) {
        await this.structure.setDefaultSiteSpace(tx, site, input.defaultSiteSpace);
      }
      const touched =
        Object.keys(changes).length > 0 ||
        input.defaultSiteSection !== undefined ||
        input.defaultSiteSpace !== undefined;
      if (touched) {
        changes.updatedAt = this.clock.now();
        try {
          await tx.update(Site, { id: site.id }, changes);
        } catch (error) {
          // Two sites claiming the same hostname at once: the unique index decides.
          if (isUniqueViolation(error) && changes.hostname) throw hostnameTaken(changes.hostname);
          throw error;
        }
        await this.revalidation.site(site.id, tx);
      }
      return this.sites.withCount(tx, await tx.findOneByOrFail(Site, { id: site.id }));
    });
  }

  /**
   * Deletes the site with its structure, share links and settings (the spaces stay); nothing
   * when there is no such site in the organization. An organization whose default content it
   * was has none any more.
   */
  async remove(organizationId: string, siteId: string): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const { affected } = await tx.delete(Site, { id: siteId, organizationId });
      if (affected) await this.grants.deleteOn('site', [siteId], tx);
      await this.organizations.clearDefaultContentSite(organizationId, siteId, tx);
      if (affected) await this.revalidation.site(siteId, tx);
    });
  }

  /**
   * Publishes (`true`) or unpublishes the site; its configuration and content stay. The renderer
   * revalidates the site and its spaces too: while the site was unpublished, their content
   * changed without telling it, and it may still hold them from before.
   */
  /**
   * Publishes or unpublishes the site; a change records `site_published` or
   * `site_unpublished`, with the site as an admin sees it.
   */
  setPublished(
    organization: SiteOrganization,
    siteId: string,
    published: boolean,
    userId: string,
  ): Promise<SiteWithCount> {
    return this.dataSource.transaction(async (tx) => {
      const site = await this.sites.findForOrganization(tx, organization.id, siteId);
      const changed = site.published !== published;
      if (changed) {
        site.published = published;
        site.updatedAt = this.clock.now();
        await tx.update(Site, { id: site.id }, { published, updatedAt: site.updatedAt });
        // The site's tag even without a renderer: this process's published lookups drop it.
        const spaceIds = this.revalidation.enabled
          ? await this.structureRepository.spaceIdsOfSite(site.id, tx)
          : [];
        await this.revalidation.tags([cacheTag.site(site.id), ...spaceIds.map(cacheTag.space)], tx);
      }
      const found = await this.sites.withCount(tx, site);
      if (changed) {
        await this.outbox.record(tx, {
          type: published ? 'site_published' : 'site_unpublished',
          organizationId: organization.id,
          resource: { type: 'site', id: site.id },
          siteId: site.id,
          actor: userActor(userId),
          fields: {
            siteId: site.id,
            site: this.presenter.present(found.site, organization, found.siteSpaces, 'admin'),
          },
        });
      }
      return found;
    });
  }

  private async assertHostnameFree(
    tx: EntityManager,
    siteId: string,
    hostname: string,
  ): Promise<void> {
    const taken = await tx.existsBy(Site, { hostname, id: Not(siteId) });
    if (taken) throw hostnameTaken(hostname);
  }
}

function isUniqueViolation(error: unknown): boolean {
  return (
    error instanceof QueryFailedError &&
    (error.driverError as { code?: string } | undefined)?.code === '23505'
  );
}
