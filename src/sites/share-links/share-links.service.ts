import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull, Not } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { invalidInput, notFound } from '../../platform/errors/domain-error';
import { newId, newSecret, sha256Hex } from '../../platform/ids/ids';
import { PageRequest } from '../../platform/pagination/keyset';
import { mapPage, Page } from '../../platform/pagination/page';
import { Revalidation } from '../../platform/revalidation/revalidation.service';
import { SealedText } from '../../platform/settings/sealed-text';
import { Site } from '../entities/site.entity';
import { SiteShareLink } from '../entities/site-share-link.entity';
import { SitesService } from '../sites.service';
import { CreateSiteShareLinkDto, UpdateSiteShareLinkDto } from './share-link.dto';
import { SiteShareLinksRepository } from './site-share-links.repository';

const shareLinkNotFound = () => notFound('Share link');
const SEAL_PURPOSE = 'share-link-keys';
const hashOf = (key: string) => sha256Hex(key);

/** A share link with its key, unsealed: what the owners of the site see. */
export interface ShareLinkWithKey {
  link: SiteShareLink;
  key: string;
}

/**
 * Share links of a site: secret keys that open a `share-link` site to whoever has one, while
 * the link is active. A key is found by its hash and shown again from its sealed copy; the
 * database never holds it in clear. The renderer revalidates the site when its links change.
 */
@Injectable()
export class SiteShareLinksService implements OnApplicationBootstrap {
  private readonly logger = new Logger('SiteShareLinks');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sites: SitesService,
    private readonly shareLinksRepository: SiteShareLinksRepository,
    private readonly clock: Clock,
    private readonly sealed: SealedText,
    private readonly revalidation: Revalidation,
  ) {}

  /** Seals the keys of links made before keys were sealed, and empties their clear column. */
  async onApplicationBootstrap(): Promise<void> {
    const legacy = await this.dataSource.manager.find(SiteShareLink, {
      where: { clearKey: Not(IsNull()) },
      select: { id: true, clearKey: true },
    });
    for (const link of legacy) {
      await this.dataSource.manager.update(
        SiteShareLink,
        { id: link.id },
        { keySealed: this.sealed.seal(SEAL_PURPOSE, link.clearKey as string), clearKey: null },
      );
    }
    if (legacy.length > 0) this.logger.log(`Sealed the keys of ${legacy.length} share links.`);
  }

  async list(
    organizationId: string,
    siteId: string,
    request: PageRequest,
  ): Promise<{ site: Site; page: Page<ShareLinkWithKey> }> {
    const site = await this.sites.findForOrganization(
      this.dataSource.manager,
      organizationId,
      siteId,
    );
    const page = await this.shareLinksRepository.listForSite(site.id, request);
    return { site, page: mapPage(page, (link) => this.withKey(link)) };
  }

  async create(
    organizationId: string,
    siteId: string,
    input: CreateSiteShareLinkDto,
  ): Promise<{ site: Site } & ShareLinkWithKey> {
    const site = await this.sites.findForOrganization(
      this.dataSource.manager,
      organizationId,
      siteId,
    );
    const key = newSecret();
    const link = this.dataSource.manager.create(SiteShareLink, {
      id: newId(),
      siteId: site.id,
      keyHash: hashOf(key),
      keySealed: this.sealed.seal(SEAL_PURPOSE, key),
      clearKey: null,
      name: input.name,
      active: true,
      createdAt: this.clock.now(),
    });
    await this.dataSource.manager.insert(SiteShareLink, link);
    await this.revalidation.site(site.id);
    return { site, link, key };
  }

  update(
    organizationId: string,
    siteId: string,
    shareLinkId: string,
    input: UpdateSiteShareLinkDto,
  ): Promise<{ site: Site } & ShareLinkWithKey> {
    if (input.active === undefined && input.name === undefined) {
      throw invalidInput('Give at least one of active, name.');
    }
    return this.dataSource.transaction(async (tx) => {
      const site = await this.sites.findForOrganization(tx, organizationId, siteId);
      const link = await this.findLink(tx, site.id, shareLinkId);
      if (input.active !== undefined) link.active = input.active;
      if (input.name !== undefined) link.name = input.name;
      await tx.update(SiteShareLink, { id: link.id }, { active: link.active, name: link.name });
      await this.revalidation.site(site.id, tx);
      return { site, ...this.withKey(link) };
    });
  }

  /** Deletes the link; nothing when it does not exist (the site must). */
  async remove(organizationId: string, siteId: string, shareLinkId: string): Promise<void> {
    const site = await this.sites.findForOrganization(
      this.dataSource.manager,
      organizationId,
      siteId,
    );
    const { affected } = await this.dataSource.manager.delete(SiteShareLink, {
      id: shareLinkId,
      siteId: site.id,
    });
    if (affected) await this.revalidation.site(site.id);
  }

  /** The active share link of the site with this key, if there is one. */
  findActiveByKey(
    manager: EntityManager,
    siteId: string,
    key: string,
  ): Promise<SiteShareLink | null> {
    return manager.findOneBy(SiteShareLink, { siteId, keyHash: hashOf(key), active: true });
  }

  private withKey(link: SiteShareLink): ShareLinkWithKey {
    const key = link.keySealed ? this.sealed.unseal(SEAL_PURPOSE, link.keySealed) : link.clearKey;
    return { link, key: key ?? '' };
  }

  private async findLink(
    manager: EntityManager,
    siteId: string,
    shareLinkId: string,
  ): Promise<SiteShareLink> {
    const link = await manager.findOneBy(SiteShareLink, { id: shareLinkId, siteId });
    if (!link) throw shareLinkNotFound();
    return link;
  }
}
