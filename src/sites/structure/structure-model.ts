import type { Site } from '../entities/site.entity';
import type { SiteExternalLink } from './entities/site-external-link.entity';
import type { SiteSection } from './entities/site-section.entity';
import type { SiteSectionGroup } from './entities/site-section-group.entity';
import type { SiteSpace } from './entities/site-space.entity';

/** The kinds of items of a site's structure, with GitBook's names. */
export const STRUCTURE_ITEM_TYPES = [
  'site-space',
  'site-section',
  'site-section-group',
  'site-external-link',
] as const;
export type StructureItemType = (typeof STRUCTURE_ITEM_TYPES)[number];

export interface StructureItemRef {
  type: StructureItemType;
  id: string;
}

/** A child of the root or of a group: a section, a nested group or an external link. */
export type StructureChild =
  | { type: 'site-section'; section: SiteSection }
  | { type: 'site-section-group'; group: SiteSectionGroup }
  | { type: 'site-external-link'; link: SiteExternalLink };

/** One key for items of any kind, so a sibling list can mix sections and groups. */
export const itemKey = (ref: StructureItemRef): string => `${ref.type}:${ref.id}`;

export const childId = (child: StructureChild): string =>
  child.type === 'site-section'
    ? child.section.id
    : child.type === 'site-section-group'
      ? child.group.id
      : child.link.id;

export const childRef = (child: StructureChild): StructureItemRef => ({
  type: child.type,
  id: childId(child),
});

interface Ordered {
  id: string;
  position: number;
  createdAt: Date;
}

function byPosition(a: Ordered, b: Ordered): number {
  return (
    a.position - b.position ||
    a.createdAt.getTime() - b.createdAt.getTime() ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/**
 * A site's whole structure in memory: its groups, sections, site spaces and external links. Sites are small
 * (tens of items), so reads present from it and writes decide on it, then write the rows that
 * change. Defaults are read with a fallback to the first item, which keeps a site consistent
 * when a purged space took the default site space with it.
 */
export class StructureModel {
  private readonly groupsById: Map<string, SiteSectionGroup>;
  private readonly sectionsById: Map<string, SiteSection>;
  private readonly siteSpacesById: Map<string, SiteSpace>;
  private readonly linksById: Map<string, SiteExternalLink>;

  constructor(
    readonly site: Site,
    readonly groups: SiteSectionGroup[],
    readonly sections: SiteSection[],
    readonly siteSpaces: SiteSpace[],
    /** None where only sections and site spaces matter (the published lookup). */
    readonly externalLinks: SiteExternalLink[] = [],
  ) {
    this.groupsById = new Map(groups.map((group) => [group.id, group]));
    this.sectionsById = new Map(sections.map((section) => [section.id, section]));
    this.siteSpacesById = new Map(siteSpaces.map((siteSpace) => [siteSpace.id, siteSpace]));
    this.linksById = new Map(externalLinks.map((link) => [link.id, link]));
  }

  externalLink(id: string): SiteExternalLink | undefined {
    return this.linksById.get(id);
  }

  group(id: string): SiteSectionGroup | undefined {
    return this.groupsById.get(id);
  }

  section(id: string): SiteSection | undefined {
    return this.sectionsById.get(id);
  }

  siteSpace(id: string): SiteSpace | undefined {
    return this.siteSpacesById.get(id);
  }

  has(ref: StructureItemRef): boolean {
    switch (ref.type) {
      case 'site-space':
        return this.siteSpacesById.has(ref.id);
      case 'site-section':
        return this.sectionsById.has(ref.id);
      case 'site-section-group':
        return this.groupsById.has(ref.id);
      case 'site-external-link':
        return this.linksById.has(ref.id);
    }
  }

  /** A site with sections publishes sections; one without, its root site spaces. */
  hasSections(): boolean {
    return this.sections.length > 0;
  }

  /** The sections, groups and links directly under a group (null: the site root), in order. */
  children(groupId: string | null): StructureChild[] {
    const sections = this.sections.filter((section) => section.sectionGroupId === groupId);
    const groups = this.groups.filter((group) => group.parentId === groupId);
    const links = this.externalLinks.filter((link) => link.sectionGroupId === groupId);
    return [
      ...sections.map((section) => ({ entity: section, child: { type: 'site-section', section } })),
      ...groups.map((group) => ({ entity: group, child: { type: 'site-section-group', group } })),
      ...links.map((link) => ({ entity: link, child: { type: 'site-external-link', link } })),
    ]
      .sort((a, b) => byPosition(a.entity, b.entity))
      .map(({ child }) => child as StructureChild);
  }

  /** The sections directly in a group, in order. */
  sectionsIn(groupId: string): SiteSection[] {
    return this.children(groupId).flatMap((child) =>
      child.type === 'site-section' ? [child.section] : [],
    );
  }

  /** The site spaces of a section (null: the site root), in order. */
  siteSpacesOf(sectionId: string | null): SiteSpace[] {
    return this.siteSpaces
      .filter((siteSpace) => siteSpace.sectionId === sectionId)
      .sort(byPosition);
  }

  /** The siblings of an item, itself included, in order. */
  siblingsOf(ref: StructureItemRef): StructureItemRef[] {
    if (ref.type === 'site-space') {
      const siteSpace = this.siteSpacesById.get(ref.id);
      if (!siteSpace) return [];
      return this.siteSpacesOf(siteSpace.sectionId).map((s) => ({ type: ref.type, id: s.id }));
    }
    return this.children(this.parentOf(ref)).map(childRef);
  }

  /** The group a section, group or link is in (null: the root). */
  parentOf(ref: StructureItemRef): string | null {
    if (ref.type === 'site-section') return this.sectionsById.get(ref.id)?.sectionGroupId ?? null;
    if (ref.type === 'site-section-group') return this.groupsById.get(ref.id)?.parentId ?? null;
    if (ref.type === 'site-external-link') {
      return this.linksById.get(ref.id)?.sectionGroupId ?? null;
    }
    return null;
  }

  /** The position an item has now. */
  positionOf(ref: StructureItemRef): number | undefined {
    switch (ref.type) {
      case 'site-space':
        return this.siteSpacesById.get(ref.id)?.position;
      case 'site-section':
        return this.sectionsById.get(ref.id)?.position;
      case 'site-section-group':
        return this.groupsById.get(ref.id)?.position;
      case 'site-external-link':
        return this.linksById.get(ref.id)?.position;
    }
  }

  /** The position after every child of a group (null: the root). */
  endOfChildren(groupId: string | null): number {
    return nextPosition(this.children(groupId).map((child) => this.positionOf(childRef(child))));
  }

  /** The position after every site space of a section (null: the root). */
  endOfSiteSpaces(sectionId: string | null): number {
    return nextPosition(this.siteSpacesOf(sectionId).map((siteSpace) => siteSpace.position));
  }

  /** Every section, in the order a reader meets them (depth first through the groups). */
  sectionsInOrder(groupId: string | null = null): SiteSection[] {
    return this.children(groupId).flatMap((child) =>
      child.type === 'site-section'
        ? [child.section]
        : child.type === 'site-section-group'
          ? this.sectionsInOrder(child.group.id)
          : [],
    );
  }

  /** Every group, in the order a reader meets them (a group before the groups inside it). */
  groupsInOrder(groupId: string | null = null): SiteSectionGroup[] {
    return this.children(groupId).flatMap((child) =>
      child.type === 'site-section-group'
        ? [child.group, ...this.groupsInOrder(child.group.id)]
        : [],
    );
  }

  /** Every site space, in the order a reader meets them: the root's, then each section's. */
  siteSpacesInOrder(): SiteSpace[] {
    return [
      ...this.siteSpacesOf(null),
      ...this.sectionsInOrder().flatMap((section) => this.siteSpacesOf(section.id)),
    ];
  }

  /** The default section: the site's, or the first section when that one is gone. */
  defaultSectionId(): string | null {
    const stored = this.site.defaultSiteSectionId;
    if (stored !== null && this.sectionsById.has(stored)) return stored;
    return this.sectionsInOrder()[0]?.id ?? null;
  }

  /** The default site space of a section (null: the root), or its first when that is gone. */
  defaultSiteSpaceId(sectionId: string | null): string | null {
    const stored =
      sectionId === null
        ? this.site.defaultSiteSpaceId
        : (this.sectionsById.get(sectionId)?.defaultSiteSpaceId ?? null);
    if (stored !== null && this.siteSpacesById.get(stored)?.sectionId === sectionId) return stored;
    return this.siteSpacesOf(sectionId)[0]?.id ?? null;
  }

  isDefaultSiteSpace(siteSpace: SiteSpace): boolean {
    return this.defaultSiteSpaceId(siteSpace.sectionId) === siteSpace.id;
  }

  /** The section paths of the site, or the site space paths of a section (null: the root). */
  sectionPaths(): Set<string> {
    return new Set(this.sections.map((section) => section.path));
  }

  siteSpacePaths(sectionId: string | null): Set<string> {
    return new Set(this.siteSpacesOf(sectionId).map((siteSpace) => siteSpace.path));
  }
}

function nextPosition(positions: (number | undefined)[]): number {
  return positions.reduce<number>((max, position) => Math.max(max, (position ?? -1) + 1), 0);
}
