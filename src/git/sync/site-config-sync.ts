import { Injectable } from '@nestjs/common';
import { posix } from 'node:path';
import type { EntityManager } from 'typeorm';
import { slugify } from '../../content-engine/tree/slug';
import { sha256Hex } from '../../platform/ids/ids';
import {
  SpaceSites,
  type SiteTree,
  type SiteTreeGroup,
  type SiteTreeNode,
  type SiteTreeSection,
  type SiteTreeSpace,
} from '../../spaces/content/space-sites';
import type { SyncedSiteConfig } from '../entities/git-sync-state.entity';
import { GitSyncsRepository } from '../git-syncs.repository';
import type { GitJob } from '../jobs/git-job';
import {
  configDirectory,
  readSiteConfig,
  renderSiteConfig,
  SITE_CONFIG_FILES,
  SITE_CONFIG_SCHEMA,
  type SiteConfig,
  type SiteConfigNode,
  type SiteConfigSection,
  type SiteConfigSectionGroup,
  type SiteConfigSpace,
} from '../layout/site-config';

/**
 * A repository's site configuration (`gitbook-docs.yaml`, see site-config.ts) and the site the
 * synced space is in (the SpaceSites port). The file is the nearest one at the synced directory
 * or above it. An import makes the structure of the site showing the space the file's: its
 * title, groups, sections and site spaces, each space node standing for the Bindery space that
 * syncs its directory from the same repository (the space imported, and others synced before);
 * nodes the sync knows no space for are left out and named in the warnings. An export writes the
 * site's structure back: as the file was while the site did not change since, else in GitBook's
 * form with the keys it had (a space of the site synced elsewhere has `directory: null`). What a
 * sync read or wrote is kept with its state (SyncedSiteConfig).
 */
@Injectable()
export class SiteConfigSync {
  constructor(
    private readonly spaceSites: SpaceSites,
    private readonly syncs: GitSyncsRepository,
  ) {}

  /** Candidate paths of the file for a sync of `directory`, nearest first. */
  static candidates(directory: string): string[] {
    const dirs: string[] = [];
    for (let dir = directory; ; dir = posix.dirname(dir)) {
      const clean = dir === '.' ? '' : dir;
      dirs.push(clean);
      if (clean === '') break;
    }
    return dirs.flatMap((dir) => SITE_CONFIG_FILES.map((name) => posix.join(dir, name)));
  }

  /**
   * Applies the file at `path` (of the repository) to the site showing the space; what to keep
   * with the sync's state, or undefined (nothing applied: the reasons are in `warnings`).
   */
  async applyOnImport(
    manager: EntityManager,
    job: Pick<GitJob, 'spaceId' | 'url' | 'directory'>,
    file: { path: string; text: string },
    previous: SyncedSiteConfig | undefined,
    warnings: string[],
  ): Promise<SyncedSiteConfig | undefined> {
    const read = readSiteConfig(file.text);
    // A `docs.yaml` of another tool is no site configuration.
    if ('errors' in read && !/^site\s*:/m.test(file.text)) return undefined;
    if ('errors' in read) {
      warnings.push(`${file.path} was not applied: ${read.errors.join('; ')}.`);
      return undefined;
    }
    const { config } = read;
    const spaceOf = await this.spacesByDirectory(manager, job);
    // The site showing the space, else one showing another space of the repository.
    let current: SiteTree | undefined;
    for (const spaceId of new Set([job.spaceId, ...spaceOf.values()])) {
      const sites = await this.spaceSites.structures(manager, spaceId);
      current = sites.find((site) => site.siteId === previous?.siteId) ?? sites[0];
      if (current) break;
    }
    if (!current) {
      warnings.push(
        `${file.path} describes a site, but no space of the repository is in a site: not applied.`,
      );
      return undefined;
    }
    const siteId = current.siteId;
    const folder = posix.dirname(file.path) === '.' ? '' : posix.dirname(file.path);
    const keys = previous?.siteId === siteId ? previous.keys : {};
    const skipped: string[] = [];
    const existing = indexTree(current.nodes);
    const treeOf = (nodes: readonly SiteConfigNode[]): SiteTreeNode[] =>
      nodes.flatMap((node): SiteTreeNode[] => {
        const known = keys[node.key];
        if (node.type === 'section-group') {
          const children = treeOf(node.children ?? []) as (SiteTreeGroup | SiteTreeSection)[];
          if (children.length === 0) return [];
          const id = known?.id ?? existing.groups.get(node.title);
          return [
            {
              type: 'section-group',
              ...(id ? { id } : {}),
              title: node.title,
              ...(node.icon ? { icon: node.icon } : {}),
              children,
            },
          ];
        }
        if (node.type === 'section') {
          const children = treeOf(node.children ?? []) as SiteTreeSpace[];
          if (children.length === 0) return [];
          if (!children.some((child) => child.default)) children[0].default = true;
          const id = known?.id ?? existing.sections.get(node.path);
          return [
            {
              type: 'section',
              ...(id ? { id } : {}),
              title: node.title,
              path: node.path,
              ...(node.description !== undefined ? { description: node.description } : {}),
              ...(node.icon ? { icon: node.icon } : {}),
              ...(node.condition ? { condition: node.condition } : {}),
              default: node.default === true,
              children,
            },
          ];
        }
        if (node.type === 'space') {
          const directory = node.content.directory;
          const spaceId =
            directory === null
              ? existing.siteSpaces.get(known?.id ?? '')?.spaceId
              : spaceOf.get(configDirectory(directory, folder));
          if (!spaceId) {
            skipped.push(node.key);
            return [];
          }
          const id = known?.id ?? existing.siteSpacesBySpace.get(spaceId);
          return [
            {
              type: 'space',
              ...(id ? { id } : {}),
              spaceId,
              title: node.title,
              path: node.path,
              ...(node.condition ? { condition: node.condition } : {}),
              default: node.default === true,
            },
          ];
        }
        // External links have no place in a Bindery site's structure yet.
        skipped.push(node.key);
        return [];
      });
    const nodes = treeOf(config.site.structure);
    if (skipped.length > 0) {
      warnings.push(
        `${file.path}: left out of the site, no space of this organization syncs their ` +
          `directory from this repository (or they are external links): ${skipped.join(', ')}.`,
      );
    }
    const configKeys = new Set(allNodes(config.site.structure).map((node) => node.key));
    const removed = {
      groups: [] as string[],
      sections: [] as string[],
      siteSpaces: [] as string[],
    };
    for (const [key, { type, id }] of Object.entries(keys)) {
      if (configKeys.has(key)) continue;
      if (type === 'section-group') removed.groups.push(id);
      else if (type === 'section') removed.sections.push(id);
      else removed.siteSpaces.push(id);
    }
    const ids = await this.spaceSites.apply({
      manager,
      tree: { siteId, title: config.site.title, nodes },
      removed,
    });
    // Keys by the place of each node in the applied tree.
    const newKeys: SyncedSiteConfig['keys'] = {};
    const record = (
      list: readonly SiteConfigNode[],
      applied: readonly SiteTreeNode[],
      at: string,
    ) => {
      let i = 0;
      for (const node of list) {
        const match = applied[i];
        if (!match || !sameNode(node, match)) continue;
        const id = ids.get(`${at}.${i}`);
        if (id) newKeys[node.key] = { type: match.type, id };
        if ('children' in node && node.children && 'children' in match) {
          record(node.children, match.children, `${at}.${i}`);
        }
        i++;
      }
    };
    record(config.site.structure, nodes, '');
    const after = (await this.spaceSites.structures(manager, job.spaceId)).find(
      (site) => site.siteId === siteId,
    );
    return {
      path: file.path,
      siteId,
      text: file.text,
      keys: newKeys,
      ...(after ? { structure: treeHash(after) } : {}),
    };
  }

  /**
   * The file an export writes for the site showing the space (the one of the last sync, else
   * the first), when the repository has one (`existingPath`) or a sync of the space read or wrote
   * one (`previous`, with this repository or another): its path (the last sync's, else the
   * repository's), its text and what to keep with the sync's state; undefined otherwise, or when
   * the space is in no site.
   */
  async forExport(
    manager: EntityManager,
    job: Pick<GitJob, 'spaceId' | 'url' | 'directory'>,
    previous: SyncedSiteConfig | undefined,
    existingPath?: string,
  ): Promise<{ path: string; text: string; record: SyncedSiteConfig } | undefined> {
    // A repository describes its site only when it did (a site-level sync): a space's own sync
    // writes no file of the site.
    if (!previous && !existingPath) return undefined;
    const sites = await this.spaceSites.structures(manager, job.spaceId);
    const site = sites.find((candidate) => candidate.siteId === previous?.siteId) ?? sites[0];
    if (!site) return undefined;
    const same = previous?.siteId === site.siteId ? previous : undefined;
    const path = same?.path ?? existingPath ?? SITE_CONFIG_FILES[0];
    const hash = treeHash(site);
    if (same && same.structure === hash) {
      return { path, text: same.text, record: same };
    }
    const folder = posix.dirname(path) === '.' ? '' : posix.dirname(path);
    const directories = new Map(
      [...(await this.spacesByDirectory(manager, job))].map(([directory, spaceId]) => [
        spaceId,
        directory,
      ]),
    );
    const keyOf = new Map(Object.entries(same?.keys ?? {}).map(([key, { id }]) => [id, key]));
    const taken = new Set(keyOf.values());
    const keys: SyncedSiteConfig['keys'] = {};
    const key = (node: SiteTreeNode): string => {
      let found = node.id ? keyOf.get(node.id) : undefined;
      if (!found) {
        const base = `${node.type}-${slugify('path' in node ? node.path : node.title, 'node')}`;
        found = base;
        for (let n = 2; taken.has(found); n++) found = `${base}-${n}`;
        taken.add(found);
      }
      if (node.id) keys[found] = { type: node.type, id: node.id };
      return found;
    };
    const toConfig = (nodes: readonly SiteTreeNode[]): SiteConfigNode[] =>
      nodes.map((node): SiteConfigNode => {
        if (node.type === 'section-group') {
          return {
            type: 'section-group',
            key: key(node),
            title: node.title,
            ...(node.icon ? { icon: node.icon } : {}),
            children: toConfig(node.children) as SiteConfigSectionGroup['children'],
          };
        }
        if (node.type === 'section') {
          return {
            type: 'section',
            key: key(node),
            title: node.title,
            ...(node.description ? { description: node.description } : {}),
            ...(node.icon ? { icon: node.icon } : {}),
            path: node.path,
            ...(node.default ? { default: true } : {}),
            ...(node.condition ? { condition: node.condition } : {}),
            children: toConfig(node.children) as SiteConfigSection['children'],
          };
        }
        const directory = directories.get(node.spaceId);
        return {
          type: 'space',
          key: key(node),
          title: node.title,
          path: node.path,
          ...(node.default ? { default: true } : {}),
          ...(node.condition ? { condition: node.condition } : {}),
          content: {
            directory: directory === undefined ? null : relativeDirectory(folder, directory),
          },
        } satisfies SiteConfigSpace;
      });
    const config: SiteConfig = {
      $schema: SITE_CONFIG_SCHEMA,
      site: { title: site.title, structure: toConfig(site.nodes) },
    };
    const text = renderSiteConfig(config);
    return {
      path,
      text,
      record: { path, siteId: site.siteId, text, keys, structure: hash },
    };
  }

  /** The spaces syncing a directory of this repository (the job's own included), by directory. */
  private async spacesByDirectory(
    manager: EntityManager,
    job: Pick<GitJob, 'spaceId' | 'url' | 'directory'>,
  ): Promise<Map<string, string>> {
    const states = await this.syncs.findStatesByUrl(job.url, manager);
    const byDirectory = new Map<string, string>();
    for (const state of states) byDirectory.set(state.directory, state.spaceId);
    byDirectory.set(job.directory, job.spaceId);
    return byDirectory;
  }
}

/** What makes a site's structure, to tell whether it changed since a sync. */
function treeHash(tree: SiteTree): string {
  return sha256Hex(JSON.stringify({ title: tree.title, nodes: tree.nodes }));
}

function relativeDirectory(folder: string, directory: string): string {
  const relative = posix.relative(folder === '' ? '.' : folder, directory === '' ? '.' : directory);
  return relative === '' ? './' : relative.startsWith('..') ? `/${directory}` : `./${relative}`;
}

function sameNode(node: SiteConfigNode, applied: SiteTreeNode): boolean {
  return node.type === applied.type && node.title === applied.title;
}

function allNodes(nodes: readonly SiteConfigNode[]): SiteConfigNode[] {
  return nodes.flatMap((node) => [
    node,
    ...('children' in node && node.children ? allNodes(node.children) : []),
  ]);
}

/** The nodes of a site's structure: groups by title, sections by path, site spaces by id and space. */
function indexTree(nodes: readonly SiteTreeNode[]) {
  const groups = new Map<string, string>();
  const sections = new Map<string, string>();
  const siteSpaces = new Map<string, SiteTreeSpace>();
  const siteSpacesBySpace = new Map<string, string>();
  const visit = (list: readonly SiteTreeNode[]) => {
    for (const node of list) {
      if (node.type === 'section-group' && node.id) groups.set(node.title, node.id);
      if (node.type === 'section' && node.id) sections.set(node.path, node.id);
      if (node.type === 'space' && node.id) {
        siteSpaces.set(node.id, node);
        if (!siteSpacesBySpace.has(node.spaceId)) siteSpacesBySpace.set(node.spaceId, node.id);
      }
      if ('children' in node) visit(node.children);
    }
  };
  visit(nodes);
  return { groups, sections, siteSpaces, siteSpacesBySpace };
}
