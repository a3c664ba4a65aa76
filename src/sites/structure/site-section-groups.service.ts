import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { invalidInput } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import type { Page } from '../../platform/pagination/page';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { Site } from '../entities/site.entity';
import { SitesService } from '../sites.service';
import {
  AddSiteSectionGroupDto,
  MoveSiteSectionGroupDto,
  UpdateSiteSectionGroupDto,
} from './dto/site-section-group.dto';
import { SiteSection } from './entities/site-section.entity';
import { SiteSectionGroup } from './entities/site-section-group.entity';
import {
  SiteStructureStore,
  siteSectionGroupNotFound,
  StructureView,
} from './site-structure.store';
import { childRef, itemKey, type StructureItemRef } from './structure-model';

/** A section group and the structure it is presented in. */
export interface SiteSectionGroupView {
  view: StructureView;
  group: SiteSectionGroup;
}

/**
 * The section groups of a site: headings that gather sections (and nested groups) in its
 * navigation. Sections and groups of one parent share one order. Deleting a group keeps its
 * content: its sections and groups take its place in its parent. Groups exist only in a site
 * with sections (a site without sections publishes its root site spaces, which groups do not
 * hold): creating one needs a section, and the last section takes the groups with it.
 */
@Injectable()
export class SiteSectionGroupsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly sites: SitesService,
    private readonly store: SiteStructureStore,
  ) {}

  /** Every group of the site, nested ones included, in the order a reader meets them. */
  async list(
    organizationId: string,
    siteId: string,
    userId: string,
    query: PageQueryDto,
  ): Promise<Page<SiteSectionGroupView>> {
    const site = await this.sites.findForOrganization(
      this.dataSource.manager,
      organizationId,
      siteId,
    );
    return this.store.listPage(site, userId, query, {
      name: 'section-groups',
      items: (view) => view.model.groupsInOrder().map((group) => ({ view, group })),
    });
  }

  /**
   * A group at the end of `parent` (a group of the site; the root when absent), into which
   * `sections` move, in that order.
   */
  async add(
    organizationId: string,
    siteId: string,
    userId: string,
    input: AddSiteSectionGroupDto,
  ): Promise<SiteSectionGroupView> {
    const { site, id } = await this.dataSource.transaction(async (manager) => {
      const site = await this.sites.findForOrganization(manager, organizationId, siteId);
      const model = await this.store.load(manager, site, { lock: true });
      if (!model.hasSections()) {
        throw invalidInput('This site has no sections to group: add a section first.');
      }
      const parentId = input.parent ?? null;
      if (parentId !== null && !model.group(parentId)) {
        throw invalidInput(`parent: no section group ${parentId} in this site.`);
      }
      const sectionIds = [...new Set(input.sections ?? [])];
      const unknown = sectionIds.find((sectionId) => !model.section(sectionId));
      if (unknown !== undefined)
        throw invalidInput(`sections: no section ${unknown} in this site.`);
      const id = newId();
      await manager.insert(SiteSectionGroup, {
        id,
        siteId: site.id,
        parentId,
        title: input.title,
        icon: input.icon ?? null,
        position: model.endOfChildren(parentId),
        createdAt: this.clock.now(),
      });
      for (const [position, sectionId] of sectionIds.entries()) {
        await manager.update(SiteSection, sectionId, { sectionGroupId: id, position });
      }
      return { site, id };
    });
    return this.viewOf(site, userId, id);
  }

  /** `title`, `icon` (null removes it). */
  async update(
    organizationId: string,
    siteId: string,
    userId: string,
    groupId: string,
    input: UpdateSiteSectionGroupDto,
  ): Promise<SiteSectionGroupView> {
    const site = await this.dataSource.transaction(async (manager) => {
      const site = await this.sites.findForOrganization(manager, organizationId, siteId);
      const model = await this.store.load(manager, site, { lock: true });
      const group = model.group(groupId);
      if (!group) throw siteSectionGroupNotFound();
      const changes: Partial<SiteSectionGroup> = {};
      if (input.title !== undefined) changes.title = input.title;
      if (input.icon !== undefined) changes.icon = input.icon;
      if (Object.keys(changes).length > 0) {
        await manager.update(SiteSectionGroup, group.id, changes);
      }
      return site;
    });
    return this.viewOf(site, userId, groupId);
  }

  /**
   * Deletes a group (also 204 when there is no such group); its sections and nested groups
   * take its place among its siblings, in their order.
   */
  async remove(organizationId: string, siteId: string, groupId: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const site = await this.sites.findForOrganization(manager, organizationId, siteId);
      const model = await this.store.load(manager, site, { lock: true });
      const group = model.group(groupId);
      if (!group) return;
      const groupKey = itemKey({ type: 'site-section-group', id: group.id });
      const content = model.children(group.id).map(childRef);
      const order = model
        .children(group.parentId)
        .map(childRef)
        .flatMap((ref) => (itemKey(ref) === groupKey ? content : [ref]));
      await this.store.renumber(manager, model, order, group.parentId);
      await manager.delete(SiteSectionGroup, group.id);
    });
  }

  /** Moves a section of the site into the group, at its end (unchanged when already in it). */
  async addSection(
    organizationId: string,
    siteId: string,
    userId: string,
    groupId: string,
    sectionId: string,
  ): Promise<SiteSectionGroupView> {
    const site = await this.dataSource.transaction(async (manager) => {
      const site = await this.sites.findForOrganization(manager, organizationId, siteId);
      const model = await this.store.load(manager, site, { lock: true });
      const group = model.group(groupId);
      if (!group) throw siteSectionGroupNotFound();
      const section = model.section(sectionId);
      if (!section) throw invalidInput(`sectionId: no section ${sectionId} in this site.`);
      if (section.sectionGroupId !== group.id) {
        await manager.update(SiteSection, section.id, {
          sectionGroupId: group.id,
          position: model.endOfChildren(group.id),
        });
      }
      return site;
    });
    return this.viewOf(site, userId, groupId);
  }

  /**
   * Moves a section out of the group, right after the group among its siblings. Nothing to do
   * (204 all the same) when the section is not in the group.
   */
  async removeSection(
    organizationId: string,
    siteId: string,
    groupId: string,
    sectionId: string,
  ): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const site = await this.sites.findForOrganization(manager, organizationId, siteId);
      const model = await this.store.load(manager, site, { lock: true });
      const group = model.group(groupId);
      if (!group) throw siteSectionGroupNotFound();
      const section = model.section(sectionId);
      if (!section || section.sectionGroupId !== group.id) return;
      const sectionRef: StructureItemRef = { type: 'site-section', id: section.id };
      const groupKey = itemKey({ type: 'site-section-group', id: group.id });
      const order = model
        .children(group.parentId)
        .map(childRef)
        .flatMap((ref) => (itemKey(ref) === groupKey ? [ref, sectionRef] : [ref]));
      await this.store.renumber(manager, model, order, group.parentId);
    });
  }

  /**
   * Deprecated move: among the sections and groups of its parent; 400 for a target that is not
   * in the site or not a sibling.
   */
  async move(
    organizationId: string,
    siteId: string,
    userId: string,
    groupId: string,
    input: MoveSiteSectionGroupDto,
  ): Promise<SiteSectionGroupView> {
    const site = await this.dataSource.transaction(async (manager) => {
      const site = await this.sites.findForOrganization(manager, organizationId, siteId);
      const model = await this.store.load(manager, site, { lock: true });
      if (!model.group(groupId)) throw siteSectionGroupNotFound();
      await this.store.move(
        manager,
        model,
        { type: 'site-section-group', id: groupId },
        { before: input.position?.before, after: input.position?.after },
      );
      return site;
    });
    return this.viewOf(site, userId, groupId);
  }

  private async viewOf(site: Site, userId: string, groupId: string): Promise<SiteSectionGroupView> {
    const view = await this.store.view(site, userId);
    const group = view.model.group(groupId);
    if (!group) throw siteSectionGroupNotFound();
    return { view, group };
  }
}
