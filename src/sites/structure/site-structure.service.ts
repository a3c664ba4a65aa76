import type { StructureModel } from './structure-model';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { invalidInput } from '../../platform/errors/domain-error';
import { Site } from '../entities/site.entity';
import { SortSiteStructureDto } from './dto/site-structure.dto';
import { SiteSpacesService } from './site-spaces.service';
import { SiteStructureRepository } from './site-structure.repository';
import { SiteStructureStore, StructureSpaces, StructureView } from './site-structure.store';
import type { StructureItemRef } from './structure-model';

/** The item a sort moved and the structure it is presented in. */
export interface SortedItemView {
  view: StructureView;
  item: StructureItemRef;
}

const describe = (ref: StructureItemRef) => `${ref.type} ${ref.id}`;

/**
 * A site's whole structure: reading it, reordering it (`structure/sort`, which replaces the
 * deprecated moves), and what the site itself needs from it (its site spaces on creation, its
 * default section and site space, the number of its site spaces).
 */
@Injectable()
export class SiteStructureService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly store: SiteStructureStore,
    private readonly siteSpaces: SiteSpacesService,
    private readonly repository: SiteStructureRepository,
  ) {}

  async get(organizationId: string, siteId: string, userId: string): Promise<StructureView> {
    return this.store.view(await this.store.site(organizationId, siteId), userId);
  }

  /** The structure of a site already read, as `userId` sees it (the published profile's). */
  view(site: Site, userId: string, manager?: EntityManager): Promise<StructureView> {
    return this.store.view(site, userId, manager);
  }

  /** The structure of a site as its published face shows it to a site reader (store's). */
  publishedView(
    site: Site,
    visible: (model: StructureModel, liveSpaceIds: ReadonlySet<string>) => StructureModel,
  ): Promise<StructureView> {
    return this.store.publishedView(site, visible);
  }

  /** The same structure and its live spaces, without the organization (store's). */
  publishedSpaces(
    site: Site,
    visible: (model: StructureModel, liveSpaceIds: ReadonlySet<string>) => StructureModel,
  ): Promise<StructureSpaces> {
    return this.store.publishedSpaces(site, visible);
  }

  /**
   * Moves a site space among the site spaces of its section (or root), or a section or group
   * among the sections and groups of its parent; `{}` moves it to the end. An item or pointer
   * that is not in the site, not a sibling, or two pointers not next to each other: 400.
   */
  async sort(
    organizationId: string,
    siteId: string,
    userId: string,
    input: SortSiteStructureDto,
  ): Promise<SortedItemView> {
    const item: StructureItemRef = { type: input.item.type, id: input.item.id };
    const { site } = await this.store.write(organizationId, siteId, async (manager, model) => {
      if (!model.has(item)) throw invalidInput(`item: no ${describe(item)} in this site.`);
      await this.store.move(manager, model, item, input.position);
    });
    return { view: await this.store.view(site, userId), item };
  }

  /**
   * The site spaces of a new site (`createSite`'s `spaces`), at its root in that order, the
   * first the default. Run in the transaction that inserted the site; 400 (`spaces: ...`) for a
   * space that is not a live space of the organization.
   */
  async addInitialSiteSpaces(
    manager: EntityManager,
    site: Site,
    spaceIds: string[],
  ): Promise<void> {
    for (const spaceId of spaceIds) {
      const model = await this.store.load(manager, site, { lock: true });
      await this.siteSpaces.insert(manager, model, spaceId, 'spaces', null);
    }
  }

  /** `updateSiteById`'s `defaultSiteSection`: 400 when it is not a section of the site. */
  async setDefaultSection(manager: EntityManager, site: Site, sectionId: string): Promise<void> {
    const model = await this.store.load(manager, site, { lock: true });
    if (!model.section(sectionId)) {
      throw invalidInput(`defaultSiteSection: no section ${sectionId} in this site.`);
    }
    await this.store.setDefaultSection(manager, model, sectionId);
  }

  /**
   * `updateSiteById`'s `defaultSiteSpace`: the site space becomes the default of its siblings
   * (the root's, or its section's); 400 when it is not a site space of the site.
   */
  async setDefaultSiteSpace(
    manager: EntityManager,
    site: Site,
    siteSpaceId: string,
  ): Promise<void> {
    const model = await this.store.load(manager, site, { lock: true });
    const siteSpace = model.siteSpace(siteSpaceId);
    if (!siteSpace) {
      throw invalidInput(`defaultSiteSpace: no site space ${siteSpaceId} in this site.`);
    }
    await this.store.setDefaultSiteSpace(manager, model, siteSpace.sectionId, siteSpace.id);
  }

  /** The number of site spaces of each site (`Site.siteSpaces`); absent sites have none. */
  async countSiteSpaces(
    siteIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, number>> {
    const counts = new Map(siteIds.map((id) => [id, 0]));
    for (const [siteId, count] of await this.repository.countSiteSpacesBySite(siteIds, manager)) {
      counts.set(siteId, count);
    }
    return counts;
  }
}
