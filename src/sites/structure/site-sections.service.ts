import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { DomainError, invalidInput } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import { charCount } from '../../platform/validation/chars';
import { Site } from '../entities/site.entity';
import {
  AddSiteSectionDto,
  ListSiteSectionsQueryDto,
  MoveSiteSectionDto,
  UpdateSiteSectionDto,
} from './dto/site-section.dto';
import { SiteExternalLink } from './entities/site-external-link.entity';
import { SiteSection } from './entities/site-section.entity';
import { SiteSectionGroup } from './entities/site-section-group.entity';
import { SiteSpace } from './entities/site-space.entity';
import { derivePath } from './paths';
import { SiteStructureStore, siteSectionNotFound } from './site-structure.store';
import { type NodeKind, type NodeWrite, presentFields, StructureNodes } from './structure-nodes';

export interface SectionTypes {
  node: SiteSection;
  list: ListSiteSectionsQueryDto;
  add: AddSiteSectionDto;
  update: UpdateSiteSectionDto;
  move: MoveSiteSectionDto;
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

const pointer = (p?: { siteSection: string }) =>
  p && { type: 'site-section' as const, id: p.siteSection };

/**
 * The sections of a site: its top-level parts, each with its site spaces as variants. The first
 * section of a site becomes its default section; deleting the default section makes the next one
 * (in reading order) the default. Listed in the order a reader meets them (depth first through
 * the groups); the deprecated move places a section among the sections and groups of its parent.
 *
 * When a site without sections gets its first section, the site spaces it had at its root are
 * not lost: as GitBook does, they become the variants of a first section named after the site
 * (the default section, with the same default variant), and the new section comes after it.
 */
const SITE_SECTIONS: NodeKind<SectionTypes> = {
  type: 'site-section',
  entity: SiteSection,
  find: (model, id) => model.section(id),
  notFound: siteSectionNotFound,
  list: { name: () => 'sections', items: (model) => model.sectionsInOrder() },

  /** At the end of the site root, with the space as its first (default) variant. */
  async add(write, input) {
    const { manager, store } = write;
    let { model } = write;
    const site = model.site;
    const space = await store.requireSpace(manager, site.organizationId, input.spaceId, 'spaceId');
    if (!model.hasSections() && model.siteSpacesOf(null).length > 0) {
      await sectionFromRoot(write);
      model = await store.load(manager, site, { lock: true });
    }
    const now = write.now();
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
    if (model.defaultSectionId() === null) await store.setDefaultSection(manager, model, id);
    return id;
  },

  /**
   * `title`, `path` (unique in the site: 409), `defaultSiteSpace` (one of its site spaces),
   * `condition`, `icon`, `description` (null removes each of the last three).
   */
  async changes({ model }, section, input) {
    const changes: Partial<SiteSection> = presentFields(input, [
      'title',
      'condition',
      'icon',
      'description',
    ]);
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
    return changes;
  },

  /**
   * With its site spaces; deleting the default section makes the next one the default,
   * deleting the last one removes the (empty) groups and the external links too.
   */
  async remove({ manager, model, store }, section) {
    const wasDefault = model.defaultSectionId() === section.id;
    await manager.delete(SiteSection, section.id);
    if (model.sections.length === 1) {
      // The last section: the site has no sections any more, so no groups or links either.
      await manager.delete(SiteExternalLink, { siteId: model.site.id });
      await manager.delete(SiteSectionGroup, { siteId: model.site.id });
    }
    if (wasDefault) {
      const next = model.sectionsInOrder().find((s) => s.id !== section.id);
      await store.setDefaultSection(manager, model, next?.id ?? null);
    }
  },

  position: (input) => ({
    before: pointer(input.position?.before),
    after: pointer(input.position?.after),
  }),
};

/** The root site spaces of a site without sections become its first (default) section. */
async function sectionFromRoot({ manager, model }: NodeWrite): Promise<void> {
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

@Injectable()
export class SiteSectionsService extends StructureNodes<SectionTypes> {
  constructor(store: SiteStructureStore, clock: Clock) {
    super(store, clock, SITE_SECTIONS);
  }
}
