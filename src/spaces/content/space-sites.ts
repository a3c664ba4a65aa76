import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * A site's structure as a Git repository describes it (GitBook's `gitbook-docs.yaml`): its
 * title and its tree of section groups, sections and site spaces. A node with an `id` is that
 * node of the site; one without is new.
 */
export interface SiteTree {
  siteId: string;
  title: string;
  nodes: SiteTreeNode[];
}

export type SiteTreeNode = SiteTreeGroup | SiteTreeSection | SiteTreeSpace;

export interface SiteTreeGroup {
  type: 'section-group';
  id?: string;
  title: string;
  icon?: string;
  children: (SiteTreeGroup | SiteTreeSection)[];
}

export interface SiteTreeSection {
  type: 'section';
  id?: string;
  title: string;
  path: string;
  description?: string;
  icon?: string;
  condition?: string;
  default: boolean;
  children: SiteTreeSpace[];
}

export interface SiteTreeSpace {
  type: 'space';
  id?: string;
  spaceId: string;
  /** The space's title (a site space has none of its own). */
  title: string;
  path: string;
  condition?: string;
  default: boolean;
}

/** What applying a tree made: the id of each node, by its place in the tree (`0.2.1`). */
export type SiteTreeIds = Map<string, string>;

export interface SiteTreeUpdate {
  /** The caller's transaction. */
  manager: EntityManager;
  tree: SiteTree;
  /**
   * Nodes of the site the repository described before and does not any more: they go. Other
   * nodes the tree does not name are left as they are.
   */
  removed: { groups: string[]; sections: string[]; siteSpaces: string[] };
}

export interface SpaceSitesHandler {
  /** The structures of the sites showing the space (none: it is in no site). */
  structures(manager: EntityManager, spaceId: string): Promise<SiteTree[]>;
  /** Makes the site's structure the tree's, in the caller's transaction. */
  apply(update: SiteTreeUpdate): Promise<SiteTreeIds>;
}

/**
 * The structure of the sites a space is published in, read and written by a Git sync of the
 * space (a repository's site configuration). The sites module registers the handler when it
 * starts; without one, a space is in no site.
 */
@Injectable()
export class SpaceSites {
  private handler?: SpaceSitesHandler;

  register(handler: SpaceSitesHandler): void {
    if (this.handler) throw new Error('A space sites handler is already registered');
    this.handler = handler;
  }

  structures(manager: EntityManager, spaceId: string): Promise<SiteTree[]> {
    return this.handler ? this.handler.structures(manager, spaceId) : Promise.resolve([]);
  }

  apply(update: SiteTreeUpdate): Promise<SiteTreeIds> {
    if (!this.handler) return Promise.resolve(new Map());
    return this.handler.apply(update);
  }
}
