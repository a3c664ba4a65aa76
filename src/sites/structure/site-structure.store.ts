import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import { Organization } from '../../orgs/entities/organization.entity';
import { AppConfig } from '../../platform/config/app-config';
import { invalidInput, notFound } from '../../platform/errors/domain-error';
import { pageOfList } from '../../platform/pagination/slice';
import type { Page } from '../../platform/pagination/page';
import type { PageQueryDto } from '../../platform/pagination/page-query.dto';
import type { Role } from '../../platform/policy/roles';
import { cacheTag } from '../../platform/revalidation/cache-tags';
import { Revalidation } from '../../platform/revalidation/revalidation.service';
import { Space } from '../../spaces/entities/space.entity';
import { SpaceAccessResolver } from '../../spaces/space-access.resolver';
import { Site } from '../entities/site.entity';
import type { SiteOrganization } from '../sites.presenter';
import { SitesRepository } from '../sites.repository';
import { siteNotFound, SitesService } from '../sites.service';
import { SiteExternalLink } from './entities/site-external-link.entity';
import { SiteSection } from './entities/site-section.entity';
import { SiteSectionGroup } from './entities/site-section-group.entity';
import { SiteSpace } from './entities/site-space.entity';
import { placeAmong, type SiblingPosition } from './sibling-order';
import { itemKey, StructureItemRef, StructureModel } from './structure-model';

/** A site's structure with the spaces of its site spaces. */
export interface StructureSpaces {
  model: StructureModel;
  /** Each space of a site space, with the caller's effective role on it. */
  spaces: Map<string, { space: Space; role: Role | null }>;
}

/** A site's structure with what presenting it needs. */
export interface StructureView extends StructureSpaces {
  organization: SiteOrganization;
}

export interface PointerPosition {
  before?: StructureItemRef;
  after?: StructureItemRef;
}

/** A site's structure rows as `load` reads them. */
interface StructureRows {
  defaults: { sectionId: string | null; siteSpaceId: string | null };
  groups: SiteSectionGroup[];
  sections: SiteSection[];
  siteSpaces: SiteSpace[];
  externalLinks: SiteExternalLink[];
}

/**
 * Reads and writes of a site's structure shared by its services. Every write runs in a
 * transaction that first locks the site row (`write`, or `load(..., { lock: true })` in a
 * transaction under way), then the structure rows: structure writes of one site are serialized,
 * so positions, paths and defaults are decided on a structure nobody else changes meanwhile.
 */
@Injectable()
export class SiteStructureStore {
  /**
   * The structure rows of published sites, by site id, as `publishedView` reads them on every
   * visitor's read and question: kept PUBLISHED_LOOKUP_CACHE_SECONDS (as published lookups
   * are), dropped at once when this process changes the site (every structure write names
   * it to Revalidation); changes made by other processes show within that time. The spaces
   * they show (which revision, whether in the trash) are read afresh every time.
   */
  private readonly published: LRUCache<string, Promise<StructureRows>> | undefined;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sites: SitesService,
    private readonly sitesRepository: SitesRepository,
    private readonly spaceAccess: SpaceAccessResolver,
    private readonly revalidation: Revalidation,
    config: AppConfig,
  ) {
    if (config.PUBLISHED_LOOKUP_CACHE_SECONDS > 0) {
      const published = new LRUCache<string, Promise<StructureRows>>({
        max: 1000,
        ttl: config.PUBLISHED_LOOKUP_CACHE_SECONDS * 1000,
      });
      revalidation.onChange((tags) => {
        for (const key of published.keys()) {
          if (tags.includes(cacheTag.site(key))) published.delete(key);
        }
      });
      this.published = published;
    }
  }

  /** The site `siteId` of the organization, for reading its structure (404 `Site`). */
  site(organizationId: string, siteId: string): Promise<Site> {
    return this.sites.findForOrganization(this.dataSource.manager, organizationId, siteId);
  }

  /**
   * Runs `change` in a transaction, on the locked structure of the organization's site (404
   * `Site`), and has the renderer revalidate the site once it commits. Answers the site, to
   * present the outcome from, and what `change` answered.
   */
  write<T>(
    organizationId: string,
    siteId: string,
    change: (manager: EntityManager, model: StructureModel) => Promise<T>,
  ): Promise<{ site: Site; result: T }> {
    return this.dataSource.transaction(async (manager) => {
      const site = await this.sites.findForOrganization(manager, organizationId, siteId);
      const model = await this.load(manager, site, { lock: true });
      const result = await change(manager, model);
      await this.revalidation.site(site.id, manager);
      return { site, result };
    });
  }

  /** The structure of `site`; with `lock`, locked for the rest of `manager`'s transaction. */
  async load(
    manager: EntityManager,
    site: Site,
    options: { lock?: boolean } = {},
  ): Promise<StructureModel> {
    return this.modelOf(site, await this.readRows(manager, site.id, options));
  }

  /** The model of `rows`, with the site's defaults as the rows have them. */
  private modelOf(site: Site, rows: StructureRows): StructureModel {
    // The defaults as they are now (the site may have been read before another write).
    site.defaultSiteSectionId = rows.defaults.sectionId;
    site.defaultSiteSpaceId = rows.defaults.siteSpaceId;
    return new StructureModel(
      site,
      rows.groups,
      rows.sections,
      rows.siteSpaces,
      rows.externalLinks,
    );
  }

  private async readRows(
    manager: EntityManager,
    siteId: string,
    options: { lock?: boolean } = {},
  ): Promise<StructureRows> {
    const lock = options.lock ? { lock: { mode: 'pessimistic_write' as const } } : {};
    const defaults = await this.sitesRepository.findDefaults(siteId, options, manager);
    if (!defaults) throw siteNotFound();
    const where = { siteId };
    const groups = await manager.find(SiteSectionGroup, { where, ...lock });
    const sections = await manager.find(SiteSection, { where, ...lock });
    const siteSpaces = await manager.find(SiteSpace, { where, ...lock });
    const externalLinks = await manager.find(SiteExternalLink, { where, ...lock });
    return {
      defaults: {
        sectionId: defaults.default_site_section_id,
        siteSpaceId: defaults.default_site_space_id,
      },
      groups,
      sections,
      siteSpaces,
      externalLinks,
    };
  }

  /** The rows of a published site's structure, from the cache when it has them. */
  private publishedRows(manager: EntityManager, siteId: string): Promise<StructureRows> {
    const cache = this.published;
    if (!cache) return this.readRows(manager, siteId);
    let rows = cache.get(siteId);
    if (!rows) {
      // Frozen: every reader of the site shares them.
      rows = this.readRows(manager, siteId).then(freezeRows);
      rows.catch(() => cache.get(siteId) === rows && cache.delete(siteId));
      cache.set(siteId, rows);
    }
    return rows;
  }

  /**
   * A page of a list of the site's structure (its site spaces, sections or groups), in the
   * order a reader meets them, which moves and sorts set. Sites are small: the page is cut
   * from the whole list in memory.
   */
  async listPage<T>(
    site: Site,
    userId: string,
    query: PageQueryDto,
    list: { name: string; items: (view: StructureView) => T[] },
  ): Promise<Page<T>> {
    const view = await this.view(site, userId);
    return pageOfList(list.items(view), query, `site:${site.id}:${list.name}`);
  }

  /** The structure of `site` as `userId` sees it, for presenting. */
  async view(
    site: Site,
    userId: string,
    manager = this.dataSource.manager,
  ): Promise<StructureView> {
    const model = await this.load(manager, site);
    const organization = await manager.findOne(Organization, {
      where: { id: site.organizationId },
      select: { id: true, hostname: true },
    });
    if (!organization) throw siteNotFound();
    const spaceIds = [...new Set(model.siteSpaces.map((siteSpace) => siteSpace.spaceId))];
    const accesses = await this.spaceAccess.resolveMany(userId, spaceIds, manager);
    const spaces = new Map<string, { space: Space; role: Role | null }>();
    for (const [id, access] of accesses)
      spaces.set(id, { space: access.entity, role: access.role });
    // A space the caller cannot see (none today: site readers are members with a role).
    const unseen = spaceIds.filter((id) => !spaces.has(id));
    if (unseen.length > 0) {
      for (const space of await manager.findBy(Space, { id: In(unseen) })) {
        spaces.set(space.id, { space, role: null });
      }
    }
    return { model, organization, spaces };
  }

  /**
   * The structure of `site` as its published face shows it to someone who holds no role (a
   * site reader): `visible` narrows the structure (conditions), given the live spaces of its
   * site spaces; spaces in the trash are never shown. With the organization, as presenting it
   * needs; publishedSpaces alone when only the structure is.
   */
  async publishedView(
    site: Site,
    visible: (model: StructureModel, liveSpaceIds: ReadonlySet<string>) => StructureModel,
    manager = this.dataSource.manager,
  ): Promise<StructureView> {
    const [structure, organization] = await Promise.all([
      this.publishedSpaces(site, visible, manager),
      manager.findOne(Organization, {
        where: { id: site.organizationId },
        select: { id: true, hostname: true },
      }),
    ]);
    if (!organization) throw siteNotFound();
    return { ...structure, organization };
  }

  /** The published structure of `site` and its live spaces, as publishedView without the organization. */
  async publishedSpaces(
    site: Site,
    visible: (model: StructureModel, liveSpaceIds: ReadonlySet<string>) => StructureModel,
    manager = this.dataSource.manager,
  ): Promise<StructureSpaces> {
    const loaded = this.modelOf(site, await this.publishedRows(manager, site.id));
    const spaceIds = [...new Set(loaded.siteSpaces.map((siteSpace) => siteSpace.spaceId))];
    const live = spaceIds.length
      ? await manager.findBy(Space, { id: In(spaceIds), deletedAt: IsNull() })
      : [];
    const spaces = new Map(live.map((space) => [space.id, { space, role: null }]));
    return { model: visible(loaded, new Set(spaces.keys())), spaces };
  }

  /** A live space of the organization, or 400 naming `field`. */
  async requireSpace(
    manager: EntityManager,
    organizationId: string,
    spaceId: string,
    field: string,
  ): Promise<Space> {
    const space = await manager.findOneBy(Space, {
      id: spaceId,
      organizationId,
      deletedAt: IsNull(),
    });
    if (!space) throw invalidInput(`${field}: no space ${spaceId} in this organization.`);
    return space;
  }

  /** Makes `siteSpaceId` the default of its siblings: a section's variants, or the root's. */
  async setDefaultSiteSpace(
    manager: EntityManager,
    model: StructureModel,
    sectionId: string | null,
    siteSpaceId: string | null,
  ): Promise<void> {
    if (sectionId === null) {
      await manager.update(Site, model.site.id, { defaultSiteSpaceId: siteSpaceId });
      model.site.defaultSiteSpaceId = siteSpaceId;
    } else {
      await manager.update(SiteSection, sectionId, { defaultSiteSpaceId: siteSpaceId });
      const section = model.section(sectionId);
      if (section) section.defaultSiteSpaceId = siteSpaceId;
    }
  }

  async setDefaultSection(
    manager: EntityManager,
    model: StructureModel,
    sectionId: string | null,
  ): Promise<void> {
    await manager.update(Site, model.site.id, { defaultSiteSectionId: sectionId });
    model.site.defaultSiteSectionId = sectionId;
  }

  /**
   * Moves `item` among its siblings to `position` and renumbers them. A pointer to nothing in
   * the site is `unknown`'s error (a 400 naming it unless said otherwise: the deprecated
   * site-space move answers 404); a pointer to an item that is not a sibling, or two that are
   * not adjacent, is 400.
   */
  async move(
    manager: EntityManager,
    model: StructureModel,
    item: StructureItemRef,
    position: PointerPosition,
    unknown: (which: 'before' | 'after', pointer: StructureItemRef) => Error = unknownPointer,
  ): Promise<void> {
    for (const which of ['before', 'after'] as const) {
      const pointer = position[which];
      if (pointer && !model.has(pointer)) throw unknown(which, pointer);
    }
    const keys: SiblingPosition = {
      before: position.before && itemKey(position.before),
      after: position.after && itemKey(position.after),
    };
    const siblings = model.siblingsOf(item);
    const placement = placeAmong(siblings.map(itemKey), itemKey(item), keys);
    if ('problem' in placement) {
      if (placement.problem === 'not-adjacent') {
        throw invalidInput('position: before and after are not next to each other.');
      }
      const pointer = position[placement.which] as StructureItemRef;
      throw invalidInput(
        `position.${placement.which}: ${pointer.type} ${pointer.id} is not a sibling of the ` +
          `moved ${item.type} (${item.type === 'site-space' ? 'same section' : 'same group'}).`,
      );
    }
    const byKey = new Map(siblings.map((ref) => [itemKey(ref), ref]));
    await this.renumber(
      manager,
      model,
      placement.order.map((key) => byKey.get(key) ?? item),
      model.parentOf(item),
    );
  }

  /**
   * Writes `order` as the order of a sibling list: each item gets its index as position, and
   * sections and groups `parentId` as parent (moving in those that came from elsewhere).
   */
  async renumber(
    manager: EntityManager,
    model: StructureModel,
    order: StructureItemRef[],
    parentId: string | null,
  ): Promise<void> {
    for (const [position, ref] of order.entries()) {
      const moved = ref.type !== 'site-space' && model.parentOf(ref) !== parentId;
      if (!moved && model.positionOf(ref) === position) continue;
      if (ref.type === 'site-section') {
        await manager.update(SiteSection, ref.id, { position, sectionGroupId: parentId });
      } else if (ref.type === 'site-section-group') {
        await manager.update(SiteSectionGroup, ref.id, { position, parentId });
      } else if (ref.type === 'site-external-link') {
        await manager.update(SiteExternalLink, ref.id, { position, sectionGroupId: parentId });
      } else {
        await manager.update(SiteSpace, ref.id, { position });
      }
    }
  }
}

/** A move's `before` or `after` names nothing in the site: "invalid position". */
export const unknownPointer = (which: 'before' | 'after', pointer: StructureItemRef) =>
  invalidInput(`position.${which}: no ${pointer.type} ${pointer.id} in this site.`);

export const siteSpaceNotFound = () => notFound('Site space');
export const siteSectionNotFound = () => notFound('Site section');
export const siteSectionGroupNotFound = () => notFound('Site section group');
export const siteExternalLinkNotFound = () => notFound('Site external link');

function freezeRows(rows: StructureRows): StructureRows {
  for (const list of [rows.groups, rows.sections, rows.siteSpaces, rows.externalLinks]) {
    list.forEach((row) => Object.freeze(row));
    Object.freeze(list);
  }
  return Object.freeze(rows);
}
