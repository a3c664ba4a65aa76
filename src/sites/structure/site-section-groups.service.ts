import { Injectable } from '@nestjs/common';
import { Clock } from '../../platform/clock/clock';
import { invalidInput } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import {
  AddSiteSectionGroupDto,
  MoveSiteSectionGroupDto,
  UpdateSiteSectionGroupDto,
} from './dto/site-section-group.dto';
import { SiteSection } from './entities/site-section.entity';
import { SiteSectionGroup } from './entities/site-section-group.entity';
import { SiteStructureStore, siteSectionGroupNotFound } from './site-structure.store';
import { childRef, itemKey, type StructureItemRef } from './structure-model';
import { type NodeKind, type NodeView, presentFields, StructureNodes } from './structure-nodes';

export interface GroupTypes {
  node: SiteSectionGroup;
  list: PageQueryDto;
  add: AddSiteSectionGroupDto;
  update: UpdateSiteSectionGroupDto;
  move: MoveSiteSectionGroupDto;
}

/**
 * The section groups of a site: headings that gather sections (and nested groups) in its
 * navigation. Sections and groups of one parent share one order. Listed in the order a reader
 * meets them, nested ones included (a group before the groups inside it). Deleting a group keeps
 * its content: its sections and groups take its place in its parent. Groups exist only in a site
 * with sections (a site without sections publishes its root site spaces, which groups do not
 * hold): creating one needs a section, and the last section takes the groups with it.
 */
const SITE_SECTION_GROUPS: NodeKind<GroupTypes> = {
  type: 'site-section-group',
  entity: SiteSectionGroup,
  find: (model, id) => model.group(id),
  notFound: siteSectionGroupNotFound,
  list: { name: () => 'section-groups', items: (model) => model.groupsInOrder() },

  /**
   * At the end of `parent` (a group of the site; the root when absent), with `sections` moved
   * into it, in that order.
   */
  async add({ manager, model, now }, input) {
    if (!model.hasSections()) {
      throw invalidInput('This site has no sections to group: add a section first.');
    }
    const parentId = input.parent ?? null;
    if (parentId !== null && !model.group(parentId)) {
      throw invalidInput(`parent: no section group ${parentId} in this site.`);
    }
    const sectionIds = [...new Set(input.sections ?? [])];
    const unknown = sectionIds.find((sectionId) => !model.section(sectionId));
    if (unknown !== undefined) throw invalidInput(`sections: no section ${unknown} in this site.`);
    const id = newId();
    await manager.insert(SiteSectionGroup, {
      id,
      siteId: model.site.id,
      parentId,
      title: input.title,
      icon: input.icon ?? null,
      position: model.endOfChildren(parentId),
      createdAt: now(),
    });
    for (const [position, sectionId] of sectionIds.entries()) {
      await manager.update(SiteSection, sectionId, { sectionGroupId: id, position });
    }
    return id;
  },

  /** `title`, `icon` (null removes it). */
  changes: async (_write, _group, input) => presentFields(input, ['title', 'icon']),

  /** Its sections and nested groups take its place among its siblings, in their order. */
  async remove({ manager, model, store }, group) {
    const groupKey = itemKey({ type: 'site-section-group', id: group.id });
    const content = model.children(group.id).map(childRef);
    const order = model
      .children(group.parentId)
      .map(childRef)
      .flatMap((ref) => (itemKey(ref) === groupKey ? content : [ref]));
    await store.renumber(manager, model, order, group.parentId);
    await manager.delete(SiteSectionGroup, group.id);
  },

  /** Pointers to sections or groups of the site. */
  position: (input) => ({ before: input.position?.before, after: input.position?.after }),
};

@Injectable()
export class SiteSectionGroupsService extends StructureNodes<GroupTypes> {
  constructor(store: SiteStructureStore, clock: Clock) {
    super(store, clock, SITE_SECTION_GROUPS);
  }

  /** Moves a section of the site into the group, at its end (unchanged when already in it). */
  addSection(
    organizationId: string,
    siteId: string,
    userId: string,
    groupId: string,
    sectionId: string,
  ): Promise<NodeView<SiteSectionGroup>> {
    return this.change(
      organizationId,
      siteId,
      userId,
      groupId,
      async ({ manager, model }, group) => {
        const section = model.section(sectionId);
        if (!section) throw invalidInput(`sectionId: no section ${sectionId} in this site.`);
        if (section.sectionGroupId !== group.id) {
          await manager.update(SiteSection, section.id, {
            sectionGroupId: group.id,
            position: model.endOfChildren(group.id),
          });
        }
      },
    );
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
    await this.writeNode(organizationId, siteId, groupId, async ({ manager, model }, group) => {
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
}
