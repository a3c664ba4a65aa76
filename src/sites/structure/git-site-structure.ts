import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager, In, IsNull } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { newId } from '../../platform/ids/ids';
import { Revalidation } from '../../platform/revalidation/revalidation.service';
import {
  SpaceSites,
  type SiteTree,
  type SiteTreeGroup,
  type SiteTreeIds,
  type SiteTreeNode,
  type SiteTreeSection,
  type SiteTreeSpace,
  type SiteTreeUpdate,
} from '../../spaces/content/space-sites';
import { Space } from '../../spaces/entities/space.entity';
import { Site } from '../entities/site.entity';
import { SiteExternalLink } from './entities/site-external-link.entity';
import { SiteSection } from './entities/site-section.entity';
import { SiteSectionGroup } from './entities/site-section-group.entity';
import { SiteSpace } from './entities/site-space.entity';
import { SiteStructureRepository } from './site-structure.repository';
import { SiteStructureStore } from './site-structure.store';
import { childId, type StructureModel } from './structure-model';

/**
 * The structure of the sites a space is in, as a Git repository describes it (the SpaceSites
 * port: GitBook's `gitbook-docs.yaml`, read and written by the git module). A site space's
 * title is its space's, or the title of its customization when the repository names it
 * otherwise. Applying a tree writes its groups, sections and site spaces where it puts them,
 * with their titles, paths, icons, descriptions, conditions and defaults; nodes of the site it
 * does not name stay, after those it names, unless the repository removed them.
 */
@Injectable()
export class GitSiteStructure implements OnModuleInit {
  constructor(
    private readonly spaceSites: SpaceSites,
    private readonly store: SiteStructureStore,
    private readonly repository: SiteStructureRepository,
    private readonly revalidation: Revalidation,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.spaceSites.register({
      structures: (manager, spaceId) => this.structures(manager, spaceId),
      apply: (update) => this.apply(update),
    });
  }

  async structures(manager: EntityManager, spaceId: string): Promise<SiteTree[]> {
    const siteIds = await this.repository.siteIdsOfSpace(spaceId, manager);
    if (siteIds.length === 0) return [];
    const sites = await manager.find(Site, { where: { id: In(siteIds) }, order: { id: 'ASC' } });
    const trees: SiteTree[] = [];
    for (const site of sites) {
      const model = await this.store.load(manager, site);
      const spaces = await this.spacesOf(manager, model);
      trees.push({ siteId: site.id, title: site.title, nodes: treeOf(model, spaces) });
    }
    return trees;
  }

  async apply({ manager, tree, removed }: SiteTreeUpdate): Promise<SiteTreeIds> {
    const site = await manager.findOneByOrFail(Site, { id: tree.siteId });
    let model = await this.store.load(manager, site, { lock: true });
    if (removed.siteSpaces.length > 0) {
      await manager.delete(SiteSpace, { siteId: site.id, id: In(removed.siteSpaces) });
    }
    if (removed.sections.length > 0) {
      await manager.delete(SiteSection, { siteId: site.id, id: In(removed.sections) });
    }
    if (removed.groups.length > 0) {
      await manager.delete(SiteSectionGroup, { siteId: site.id, id: In(removed.groups) });
    }
    model = await this.store.load(manager, site, { lock: true });
    const spaces = await manager.findBy(Space, {
      id: In([...spacesIn(tree.nodes)].map((node) => node.spaceId)),
      organizationId: site.organizationId,
      deletedAt: IsNull(),
    });
    const spaceTitles = new Map(spaces.map((space) => [space.id, space.title]));

    // Paths are unique among siblings: the nodes that move out of the way first.
    for (const node of flatten(tree.nodes)) {
      if (node.type === 'section' && node.id && model.section(node.id)?.path !== node.path) {
        await manager.update(SiteSection, node.id, { path: `~git-${node.id}` });
      }
      if (node.type === 'space' && node.id && model.siteSpace(node.id)?.path !== node.path) {
        await manager.update(SiteSpace, node.id, { path: `~git-${node.id}` });
      }
    }

    const ids: SiteTreeIds = new Map();
    const now = this.clock.now();
    const customizations = { ...site.siteSpaceCustomizations };
    let defaultSection: string | null = null;
    let rootDefaultSpace: string | null = null;
    const writeSpaces = async (
      list: readonly SiteTreeSpace[],
      sectionId: string | null,
      at: string,
    ): Promise<string | null> => {
      let defaultId: string | null = null;
      let firstId: string | null = null;
      const kept = model.siteSpacesOf(sectionId).filter((s) => !list.some((n) => n.id === s.id));
      for (const [i, node] of list.entries()) {
        if (!spaceTitles.has(node.spaceId)) continue;
        const id = node.id && model.siteSpace(node.id) ? node.id : newId();
        const fields = {
          sectionId,
          spaceId: node.spaceId,
          path: node.path,
          condition: node.condition ?? null,
          position: i,
        };
        if (id === node.id) await manager.update(SiteSpace, id, fields);
        else await manager.insert(SiteSpace, { id, siteId: site.id, ...fields, createdAt: now });
        const override = customizations[id] ?? {};
        const { title: _title, ...rest } = override as { title?: string };
        customizations[id] =
          node.title !== spaceTitles.get(node.spaceId) ? { ...rest, title: node.title } : rest;
        if (node.default) defaultId = id;
        firstId ??= id;
        ids.set(`${at}.${i}`, id);
      }
      for (const [i, siteSpace] of kept.entries()) {
        await manager.update(SiteSpace, siteSpace.id, { position: list.length + i });
      }
      return defaultId ?? firstId ?? model.defaultSiteSpaceId(sectionId);
    };
    const writeChildren = async (
      list: readonly SiteTreeNode[],
      groupId: string | null,
      at: string,
    ): Promise<void> => {
      const named = new Set(list.flatMap((node) => (node.id ? [node.id] : [])));
      // External links are not in gitbook-docs.yaml: they keep their place after what it names.
      const kept = model.children(groupId).filter((child) => !named.has(childId(child)));
      let position = 0;
      for (const [i, node] of list.entries()) {
        const place = `${at}.${i}`;
        if (node.type === 'section-group') {
          const id = await this.writeGroup(manager, model, site, node, groupId, position++, now);
          ids.set(place, id);
          await writeChildren(node.children, id, place);
        } else if (node.type === 'section') {
          const id = await this.writeSection(manager, model, site, node, groupId, position++, now);
          ids.set(place, id);
          const defaultSpace = await writeSpaces(node.children, id, place);
          await manager.update(SiteSection, id, { defaultSiteSpaceId: defaultSpace });
          if (node.default) defaultSection = id;
        }
      }
      for (const child of kept) {
        if (child.type === 'site-section') {
          await manager.update(SiteSection, child.section.id, { position: position++ });
        } else if (child.type === 'site-section-group') {
          await manager.update(SiteSectionGroup, child.group.id, { position: position++ });
        } else {
          await manager.update(SiteExternalLink, child.link.id, { position: position++ });
        }
      }
    };
    await writeChildren(tree.nodes, null, '');
    const rootSpaces = tree.nodes.filter((node): node is SiteTreeSpace => node.type === 'space');
    if (rootSpaces.length > 0) rootDefaultSpace = await writeSpaces(rootSpaces, null, '');
    await manager.update(Site, site.id, {
      title: tree.title,
      siteSpaceCustomizations: customizations,
      // A site with sections has a default section, and no default site space of its own.
      ...(defaultSection !== null
        ? { defaultSiteSectionId: defaultSection, defaultSiteSpaceId: null }
        : {}),
      ...(rootDefaultSpace !== null ? { defaultSiteSpaceId: rootDefaultSpace } : {}),
    });
    await this.revalidation.site(site.id, manager);
    return ids;
  }

  private async writeGroup(
    manager: EntityManager,
    model: StructureModel,
    site: Site,
    node: SiteTreeGroup,
    parentId: string | null,
    position: number,
    now: Date,
  ): Promise<string> {
    const fields = { parentId, title: node.title, icon: node.icon ?? null, position };
    if (node.id && model.group(node.id)) {
      await manager.update(SiteSectionGroup, node.id, fields);
      return node.id;
    }
    const id = newId();
    await manager.insert(SiteSectionGroup, { id, siteId: site.id, ...fields, createdAt: now });
    return id;
  }

  private async writeSection(
    manager: EntityManager,
    model: StructureModel,
    site: Site,
    node: SiteTreeSection,
    sectionGroupId: string | null,
    position: number,
    now: Date,
  ): Promise<string> {
    const fields = {
      sectionGroupId,
      title: node.title,
      path: node.path,
      description: node.description ?? null,
      icon: node.icon ?? null,
      condition: node.condition ?? null,
      position,
    };
    if (node.id && model.section(node.id)) {
      await manager.update(SiteSection, node.id, fields);
      return node.id;
    }
    const id = newId();
    await manager.insert(SiteSection, {
      id,
      siteId: site.id,
      ...fields,
      defaultSiteSpaceId: null,
      createdAt: now,
    });
    return id;
  }

  private async spacesOf(manager: EntityManager, model: StructureModel): Promise<Space[]> {
    const ids = [...new Set(model.siteSpaces.map((siteSpace) => siteSpace.spaceId))];
    return ids.length === 0 ? [] : manager.findBy(Space, { id: In(ids) });
  }
}

/** The tree of a site's structure as a reader meets it. */
function treeOf(model: StructureModel, spaces: readonly Space[]): SiteTreeNode[] {
  const titles = new Map(spaces.map((space) => [space.id, space.title]));
  const siteSpaces = (sectionId: string | null): SiteTreeSpace[] =>
    model.siteSpacesOf(sectionId).map((siteSpace) => {
      const override = model.site.siteSpaceCustomizations?.[siteSpace.id]?.title;
      return {
        type: 'space',
        id: siteSpace.id,
        spaceId: siteSpace.spaceId,
        title: typeof override === 'string' ? override : (titles.get(siteSpace.spaceId) ?? ''),
        path: siteSpace.path,
        ...(siteSpace.condition ? { condition: siteSpace.condition } : {}),
        default: model.isDefaultSiteSpace(siteSpace),
      };
    });
  const children = (groupId: string | null): (SiteTreeGroup | SiteTreeSection)[] =>
    model.children(groupId).flatMap((child) => {
      // External links are not in gitbook-docs.yaml.
      if (child.type === 'site-external-link') return [];
      if (child.type === 'site-section-group') {
        const group = child.group;
        return {
          type: 'section-group',
          id: group.id,
          title: group.title,
          ...(group.icon ? { icon: group.icon } : {}),
          children: children(group.id),
        };
      }
      const section = child.section;
      return {
        type: 'section',
        id: section.id,
        title: section.title,
        path: section.path,
        ...(section.description ? { description: section.description } : {}),
        ...(section.icon ? { icon: section.icon } : {}),
        ...(section.condition ? { condition: section.condition } : {}),
        default: model.defaultSectionId() === section.id,
        children: siteSpaces(section.id),
      };
    });
  return model.hasSections() ? children(null) : siteSpaces(null);
}

function flatten(nodes: readonly SiteTreeNode[]): SiteTreeNode[] {
  return nodes.flatMap((node) => [node, ...('children' in node ? flatten(node.children) : [])]);
}

function spacesIn(nodes: readonly SiteTreeNode[]): SiteTreeSpace[] {
  return flatten(nodes).filter((node): node is SiteTreeSpace => node.type === 'space');
}
