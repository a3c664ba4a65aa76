import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { DomainError, invalidInput } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import type { Page } from '../../platform/pagination/page';
import { charCount } from '../../platform/validation/chars';
import { Site } from '../entities/site.entity';
import { SitesService } from '../sites.service';
import {
  AddSiteSectionDto,
  ListSiteSectionsQueryDto,
  MoveSiteSectionDto,
  UpdateSiteSectionDto,
} from './dto/site-section.dto';
import { SiteSection } from './entities/site-section.entity';
import { SiteSectionGroup } from './entities/site-section-group.entity';
import { SiteSpace } from './entities/site-space.entity';
import { derivePath } from './paths';
import { SiteStructureStore, siteSectionNotFound, StructureView } from './site-structure.store';
import type { StructureModel } from './structure-model';

/** A section and the structure it is presented in. */
export interface SiteSectionView {
  view: StructureView;
  section: SiteSection;
}

const sectionPathTaken = (path: string) =>
  new DomainError(
    'conflict',
    'SiteSectionPathTaken',
    `path: "${path}" is already the path of another section of this site.`,
  );

/** A section title from a space's title, long enough for GitBook's 2..128. */
function sectionTitle(title: string): string {
  const trimmed = title.trim();
  return charCount(trimmed) >= 2 ? trimmed : 'Untitled';
}

/**
 * The sections of a site: its top-level parts, each with its site spaces as variants. The first
 * section of a site becomes its default section; deleting the default section makes the next one
 * (in reading order) the default.
 *
 * When a site without sections gets its first section, the site spaces it had at its root are
 * not lost: as GitBook does, they become the variants of a first section named after the site
 * (the default section, with the same default variant), and the new section comes after it.
 */
@Injectable()
export class SiteSectionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly sites: SitesService,
    private readonly store: SiteStructureStore,
  ) {}

  /** In the order a reader meets them (depth first through the groups). */
  async list(
    organizationId: string,
    siteId: string,
    userId: string,
    query: ListSiteSectionsQueryDto,
  ): Promise<Page<SiteSectionView>> {
    const site = await this.sites.findForOrganization(
      this.dataSource.manager,
      organizationId,
      siteId,
    );
    return this.store.listPage(site, userId, query, {
      name: 'sections',
      items: (view) => view.model.sectionsInOrder().map((section) => ({ view, section })),
    });
  }

  /** A section at the end of the site root, with the space as its first (default) variant. */
  async add(
    organizationId: string,
    siteId: string,
    userId: string,
    input: AddSiteSectionDto,
  ): Promise<SiteSectionView> {
    const { site, id } = await this.dataSource.transaction(async (manager) => {
      const site = await this.sites.findForOrganization(manager, organizationId, siteId);
      let model = await this.store.load(manager, site, { lock: true });
      const space = await this.store.requireSpace(
        manager,
        organizationId,
        input.spaceId,
        'spaceId',
      );
      if (!model.hasSections() && model.siteSpacesOf(null).length > 0) {
        await this.sectionFromRoot(manager, model);
        model = await this.store.load(manager, site, { lock: true });
      }
      const now = this.clock.now();
      const title = input.title ?? sectionTitle(space.title);
      const id = newId();
      const siteSpaceId = newId();
      await manager.insert(SiteSection, {
        id,
        siteId: site.id,
        sectionGroupId: null,
        title,
        path: derivePath(title, 'section', model.sectionPaths()),
        description: null,
        icon: input.icon ?? null,
        condition: null,
        defaultSiteSpaceId: siteSpaceId,
        position: model.endOfChildren(null),
        createdAt: now,
      });
      await manager.insert(SiteSpace, {
        id: siteSpaceId,
        siteId: site.id,
        sectionId: id,
        spaceId: space.id,
        path: derivePath(space.title, 'space', new Set()),
        condition: null,
        position: 0,
        createdAt: now,
      });
      if (model.defaultSectionId() === null) await this.store.setDefaultSection(manager, model, id);
      return { site, id };
    });
    return this.viewOf(site, userId, id);
  }

  /** The root site spaces of a site without sections become its first (default) section. */
  private async sectionFromRoot(manager: EntityManager, model: StructureModel): Promise<void> {
    const site = model.site;
    const id = newId();
    await manager.insert(SiteSection, {
      id,
      siteId: site.id,
      sectionGroupId: null,
      title: sectionTitle(site.title),
      path: derivePath(site.title, 'section', new Set()),
      description: null,
      icon: null,
      condition: null,
      defaultSiteSpaceId: model.defaultSiteSpaceId(null),
      position: model.endOfChildren(null),
      // It holds what the site published from the start: it lists before the new section.
      createdAt: new Date(Math.min(...model.siteSpacesOf(null).map((s) => s.createdAt.getTime()))),
    });
    await manager.update(SiteSpace, { siteId: site.id, sectionId: IsNull() }, { sectionId: id });
    await manager.update(Site, site.id, { defaultSiteSpaceId: null, defaultSiteSectionId: id });
  }

  /**
   * `title`, `path` (unique in the site: 409), `defaultSiteSpace` (one of its site spaces),
   * `condition`, `icon`, `description` (null removes each of the last three).
   */
  async update(
    organizationId: string,
    siteId: string,
    userId: string,
    sectionId: string,
    input: UpdateSiteSectionDto,
  ): Promise<SiteSectionView> {
    const site = await this.dataSource.transaction(async (manager) => {
      const site = await this.sites.findForOrganization(manager, organizationId, siteId);
      const model = await this.store.load(manager, site, { lock: true });
      const section = model.section(sectionId);
      if (!section) throw siteSectionNotFound();
      const changes: Partial<SiteSection> = {};
      if (input.title !== undefined) changes.title = input.title;
      if (input.path !== undefined && input.path !== section.path) {
        if (model.sectionPaths().has(input.path)) throw sectionPathTaken(input.path);
        changes.path = input.path;
      }
      if (input.defaultSiteSpace !== undefined) {
        if (model.siteSpace(input.defaultSiteSpace)?.sectionId !== section.id) {
          throw invalidInput(
            `defaultSiteSpace: no site space ${input.defaultSiteSpace} in this section.`,
          );
        }
        changes.defaultSiteSpaceId = input.defaultSiteSpace;
      }
      if (input.condition !== undefined) changes.condition = input.condition;
      if (input.icon !== undefined) changes.icon = input.icon;
      if (input.description !== undefined) changes.description = input.description;
      if (Object.keys(changes).length > 0) await manager.update(SiteSection, section.id, changes);
      return site;
    });
    return this.viewOf(site, userId, sectionId);
  }

  /**
   * Deletes a section with its site spaces (also 204 when there is no such section); deleting
   * the default section makes the next one the default, deleting the last one removes the
   * (empty) groups too.
   */
  async remove(organizationId: string, siteId: string, sectionId: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const site = await this.sites.findForOrganization(manager, organizationId, siteId);
      const model = await this.store.load(manager, site, { lock: true });
      const section = model.section(sectionId);
      if (!section) return;
      const wasDefault = model.defaultSectionId() === section.id;
      await manager.delete(SiteSection, section.id);
      if (model.sections.length === 1) {
        // The last section: the site has no sections any more, so no groups either.
        await manager.delete(SiteSectionGroup, { siteId: site.id });
      }
      if (wasDefault) {
        const next = model.sectionsInOrder().find((s) => s.id !== section.id);
        await this.store.setDefaultSection(manager, model, next?.id ?? null);
      }
    });
  }

  /**
   * Deprecated move: among the sections of its parent (the root or its group); 400 for a
   * target that is not in the site or not a sibling.
   */
  async move(
    organizationId: string,
    siteId: string,
    userId: string,
    sectionId: string,
    input: MoveSiteSectionDto,
  ): Promise<SiteSectionView> {
    const site = await this.dataSource.transaction(async (manager) => {
      const site = await this.sites.findForOrganization(manager, organizationId, siteId);
      const model = await this.store.load(manager, site, { lock: true });
      if (!model.section(sectionId)) throw siteSectionNotFound();
      const pointer = (p?: { siteSection: string }) =>
        p && { type: 'site-section' as const, id: p.siteSection };
      await this.store.move(
        manager,
        model,
        { type: 'site-section', id: sectionId },
        { before: pointer(input.position?.before), after: pointer(input.position?.after) },
      );
      return site;
    });
    return this.viewOf(site, userId, sectionId);
  }

  private async viewOf(site: Site, userId: string, sectionId: string): Promise<SiteSectionView> {
    const view = await this.store.view(site, userId);
    const section = view.model.section(sectionId);
    if (!section) throw siteSectionNotFound();
    return { view, section };
  }
}
