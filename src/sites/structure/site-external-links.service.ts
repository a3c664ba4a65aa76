import { Injectable } from '@nestjs/common';
import { Clock } from '../../platform/clock/clock';
import { invalidInput } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { AddSiteExternalLinkDto, UpdateSiteExternalLinkDto } from './dto/site-external-link.dto';
import { SiteExternalLink } from './entities/site-external-link.entity';
import { SiteStructureStore, siteExternalLinkNotFound } from './site-structure.store';
import type { StructureModel } from './structure-model';
import { type NodeKind, presentFields, StructureNodes } from './structure-nodes';

export interface ExternalLinkTypes {
  node: SiteExternalLink;
  list: PageQueryDto;
  add: AddSiteExternalLinkDto;
  update: UpdateSiteExternalLinkDto;
  move: object;
}

/** `parent` as a group of the site (null: the root); 400 for anything else, a section too. */
function parentGroup(model: StructureModel, parent: string | null): string | null {
  if (parent === null || model.group(parent)) return parent;
  if (model.section(parent)) {
    throw invalidInput(
      `parent: ${parent} is a section; a link goes at the site root or in a section group.`,
    );
  }
  throw invalidInput(`parent: no section group ${parent} in this site.`);
}

/**
 * The external links of a site's navigation: links to other websites, at the site root or in a
 * section group, ordered among the sections and groups there (moved with `sortSiteStructure`).
 * Only a site with sections has them (a site without sections publishes its root site spaces,
 * which links do not sit among): adding one to such a site is 400, and deleting the last section
 * takes them with it. A draft link, or one whose condition the visitor does not meet, is absent
 * from the published site (visibleStructure). Deleting a group moves its links up with the rest.
 */
const SITE_EXTERNAL_LINKS: NodeKind<ExternalLinkTypes> = {
  type: 'site-external-link',
  entity: SiteExternalLink,
  find: (model, id) => model.externalLink(id),
  notFound: siteExternalLinkNotFound,
  // No list route: the links are read in the site's structure.
  list: { name: () => 'external-links', items: (model) => model.externalLinks },

  /** At the end of `parent` (a group of the site; the root when absent). */
  async add({ manager, model, now }, input) {
    if (!model.hasSections()) {
      throw invalidInput(
        'This site has a simple structure (no sections): external links need sections.',
      );
    }
    const parentId = parentGroup(model, input.parent ?? null);
    const id = newId();
    await manager.insert(SiteExternalLink, {
      id,
      siteId: model.site.id,
      sectionGroupId: parentId,
      title: input.title,
      localizedTitle: input.localizedTitle ?? null,
      description: input.description ?? null,
      localizedDescription: input.localizedDescription ?? null,
      icon: input.icon ?? null,
      url: input.url,
      draft: input.draft ?? false,
      condition: input.condition ?? null,
      position: model.endOfChildren(parentId),
      createdAt: now(),
    });
    return id;
  },

  /**
   * The fields present (null removes the optional ones); a new `parent` moves the link to the
   * end of that group (null: of the root).
   */
  async changes({ model }, link, input) {
    const changes: Partial<SiteExternalLink> = presentFields(input, [
      'title',
      'localizedTitle',
      'description',
      'localizedDescription',
      'icon',
      'url',
      'draft',
      'condition',
    ]);
    if (input.parent !== undefined) {
      const parentId = parentGroup(model, input.parent);
      if (parentId !== link.sectionGroupId) {
        changes.sectionGroupId = parentId;
        changes.position = model.endOfChildren(parentId);
      }
    }
    return changes;
  },

  async remove({ manager }, link) {
    await manager.delete(SiteExternalLink, link.id);
  },

  position: () => ({}),
};

@Injectable()
export class SiteExternalLinksService extends StructureNodes<ExternalLinkTypes> {
  constructor(store: SiteStructureStore, clock: Clock) {
    super(store, clock, SITE_EXTERNAL_LINKS);
  }

  /** Deletes the link; whether it was there (205) or not (204). */
  async delete(organizationId: string, siteId: string, id: string): Promise<boolean> {
    const { result } = await this.write(organizationId, siteId, async (write) => {
      const link = write.model.externalLink(id);
      if (!link) return false;
      await SITE_EXTERNAL_LINKS.remove(write, link);
      return true;
    });
    return result;
  }
}
