import type { EntityManager, EntityTarget } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { Clock } from '../../platform/clock/clock';
import type { Page } from '../../platform/pagination/page';
import type { PageQueryDto } from '../../platform/pagination/page-query.dto';
import type { Site } from '../entities/site.entity';
import type { PointerPosition, SiteStructureStore, StructureView } from './site-structure.store';
import type { StructureItemRef, StructureItemType, StructureModel } from './structure-model';

/** The types of one kind of node (site space, section, group): its entity and route inputs. */
export interface NodeTypes {
  node: { id: string };
  list: PageQueryDto;
  add: object;
  update: object;
  move: object;
}

/** A node and the structure it is presented in. */
export interface NodeView<N> {
  view: StructureView;
  node: N;
}

/** A write in progress: its transaction, the site's structure locked in it, and helpers. */
export interface NodeWrite {
  manager: EntityManager;
  model: StructureModel;
  store: SiteStructureStore;
  now(): Date;
}

/** What is particular to one kind of node; {@link StructureNodes} does the rest. */
export interface NodeKind<T extends NodeTypes> {
  /** GitBook's name of the kind, as moves and sorts name it. */
  type: StructureItemType;
  entity: EntityTarget<T['node']>;
  find(model: StructureModel, id: string): T['node'] | undefined;
  /** The 404 for a node that is not in the site. */
  notFound(): Error;
  /** The list route: its name in page cursors, and its nodes in the order a reader meets them. */
  list: {
    name(query: T['list']): string;
    items(model: StructureModel, query: T['list']): T['node'][];
  };
  /** Inserts a node; its id. */
  add(write: NodeWrite, input: T['add']): Promise<string>;
  /** The columns an update changes, checked against the structure (400, 409). */
  changes(write: NodeWrite, node: T['node'], input: T['update']): Promise<Partial<T['node']>>;
  /** Deletes the node and mends what it leaves behind (defaults, order). */
  remove(write: NodeWrite, node: T['node']): Promise<void>;
  /** The deprecated move's `position` as pointers into the structure. */
  position(input: T['move']): PointerPosition;
  /** The error for a pointer to nothing in the site; the store's 400 when absent. */
  unknownPointer?: (which: 'before' | 'after', pointer: StructureItemRef) => Error;
}

/**
 * The routes every kind of node of a site's structure has: list, add, update, delete and the
 * deprecated move. Each write runs on the locked structure (see SiteStructureStore) and answers
 * the node as the caller sees it after; deleting a node that is not there is no error.
 */
export class StructureNodes<T extends NodeTypes> {
  constructor(
    protected readonly store: SiteStructureStore,
    private readonly clock: Clock,
    protected readonly kind: NodeKind<T>,
  ) {}

  async list(
    organizationId: string,
    siteId: string,
    userId: string,
    query: T['list'],
  ): Promise<Page<NodeView<T['node']>>> {
    const site = await this.store.site(organizationId, siteId);
    return this.store.listPage(site, userId, query, {
      name: this.kind.list.name(query),
      items: (view) => this.kind.list.items(view.model, query).map((node) => ({ view, node })),
    });
  }

  async add(
    organizationId: string,
    siteId: string,
    userId: string,
    input: T['add'],
  ): Promise<NodeView<T['node']>> {
    const { site, result: id } = await this.write(organizationId, siteId, (write) =>
      this.kind.add(write, input),
    );
    return this.viewOf(site, userId, id);
  }

  async update(
    organizationId: string,
    siteId: string,
    userId: string,
    id: string,
    input: T['update'],
  ): Promise<NodeView<T['node']>> {
    return this.change(organizationId, siteId, userId, id, async (write, node) => {
      const changes = await this.kind.changes(write, node, input);
      if (Object.keys(changes).length > 0) {
        await write.manager.update(
          this.kind.entity,
          node.id,
          changes as QueryDeepPartialEntity<T['node']>,
        );
      }
    });
  }

  async remove(organizationId: string, siteId: string, id: string): Promise<void> {
    await this.write(organizationId, siteId, async (write) => {
      const node = this.kind.find(write.model, id);
      if (node) await this.kind.remove(write, node);
    });
  }

  /** Among its siblings; 400 for a pointer that is not a sibling (see SiteStructureStore.move). */
  async move(
    organizationId: string,
    siteId: string,
    userId: string,
    id: string,
    input: T['move'],
  ): Promise<NodeView<T['node']>> {
    return this.change(organizationId, siteId, userId, id, (write) =>
      this.store.move(
        write.manager,
        write.model,
        { type: this.kind.type, id },
        this.kind.position(input),
        this.kind.unknownPointer,
      ),
    );
  }

  /** Runs `change` on the node `id` (404 when it is not in the site), then answers the node. */
  protected async change(
    organizationId: string,
    siteId: string,
    userId: string,
    id: string,
    change: (write: NodeWrite, node: T['node']) => Promise<void>,
  ): Promise<NodeView<T['node']>> {
    const { site } = await this.writeNode(organizationId, siteId, id, change);
    return this.viewOf(site, userId, id);
  }

  /** Runs `change` on the node `id` of the locked structure (404 when it is not in the site). */
  protected writeNode<R>(
    organizationId: string,
    siteId: string,
    id: string,
    change: (write: NodeWrite, node: T['node']) => Promise<R>,
  ): Promise<{ site: Site; result: R }> {
    return this.write(organizationId, siteId, async (write) => {
      const node = this.kind.find(write.model, id);
      if (!node) throw this.kind.notFound();
      return change(write, node);
    });
  }

  /** Runs `change` on the locked structure of the site (see SiteStructureStore.write). */
  protected write<R>(
    organizationId: string,
    siteId: string,
    change: (write: NodeWrite) => Promise<R>,
  ): Promise<{ site: Site; result: R }> {
    return this.store.write(organizationId, siteId, (manager, model) =>
      change(this.writeOn(manager, model)),
    );
  }

  /** A write on a structure already loaded (and locked) in `manager`'s transaction. */
  protected writeOn(manager: EntityManager, model: StructureModel): NodeWrite {
    return { manager, model, store: this.store, now: () => this.clock.now() };
  }

  private async viewOf(site: Site, userId: string, id: string): Promise<NodeView<T['node']>> {
    const view = await this.store.view(site, userId);
    const node = this.kind.find(view.model, id);
    if (!node) throw this.kind.notFound();
    return { view, node };
  }
}

/** The fields of an update that are present (null included: it removes), as they are. */
export function presentFields<I extends object, K extends keyof I>(
  input: I,
  keys: readonly K[],
): Partial<Pick<I, K>> {
  const fields: Partial<Pick<I, K>> = {};
  for (const key of keys) if (input[key] !== undefined) fields[key] = input[key];
  return fields;
}
