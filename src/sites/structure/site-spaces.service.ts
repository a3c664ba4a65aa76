import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { DomainError, invalidInput, notFound } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import { charCount } from '../../platform/validation/chars';
import { SpaceAccessResolver } from '../../spaces/space-access.resolver';
import { SpaceLifecycle } from '../../spaces/space-lifecycle.service';
import {
  AddSiteSpaceDto,
  ListSiteSpacesQueryDto,
  MoveSiteSpaceDto,
  UpdateSiteSpaceDto,
} from './dto/site-space.dto';
import { SiteSection } from './entities/site-section.entity';
import { SiteSpace } from './entities/site-space.entity';
import { derivePath } from './paths';
import { SiteStructureStore, siteSpaceNotFound } from './site-structure.store';
import type { StructureModel } from './structure-model';
import { type NodeKind, type NodeView, type NodeWrite, StructureNodes } from './structure-nodes';

export interface SiteSpaceTypes {
  node: SiteSpace;
  list: ListSiteSpacesQueryDto;
  add: AddSiteSpaceDto;
  update: UpdateSiteSpaceDto;
  move: MoveSiteSpaceDto;
}

const siteSpacePathTaken = (path: string, sectionId: string | null) =>
  new DomainError(
    'conflict',
    'SiteSpacePathTaken',
    `path: "${path}" is already the path of another site space ${
      sectionId === null ? 'at the root of this site' : 'of this section'
    }.`,
  );

const pointer = (p?: { siteSpace: string }) =>
  p && { type: 'site-space' as const, id: p.siteSpace };

/**
 * The site spaces of a site: the spaces it publishes, as variants of its sections or, for a site
 * without sections, at its root. The first site space of a section (or the root) is its default;
 * deleting the default makes the next one the default. Listed in the order a reader meets them
 * (the root's, then each section's); the deprecated move answers 404 for an unknown target.
 */
const SITE_SPACES: NodeKind<SiteSpaceTypes> = {
  type: 'site-space',
  entity: SiteSpace,
  find: (model, id) => model.siteSpace(id),
  notFound: siteSpaceNotFound,
  list: {
    name: (query) => `site-spaces:${query.default ?? ''}`,
    items: (model, query) =>
      model
        .siteSpacesInOrder()
        .filter(
          (siteSpace) =>
            query.default === undefined || model.isDefaultSiteSpace(siteSpace) === query.default,
        ),
  },

  /** To `sectionId`, else to the default section, else (a site without sections) at the root. */
  async add(write, input) {
    const { model } = write;
    let sectionId: string | null = null;
    if (input.sectionId !== undefined) {
      if (!model.section(input.sectionId)) {
        throw invalidInput(`sectionId: no section ${input.sectionId} in this site.`);
      }
      sectionId = input.sectionId;
    } else if (model.hasSections()) {
      sectionId = model.defaultSectionId();
    }
    return insertSiteSpace(write, input.spaceId, 'spaceId', sectionId);
  },

  /** `path` (unique among its siblings: 409), `condition` (null removes it), `spaceId`. */
  async changes({ manager, model, store }, siteSpace, input) {
    const changes: Partial<SiteSpace> = {};
    if (input.path !== undefined && input.path !== siteSpace.path) {
      if (model.siteSpacePaths(siteSpace.sectionId).has(input.path)) {
        throw siteSpacePathTaken(input.path, siteSpace.sectionId);
      }
      changes.path = input.path;
    }
    if (input.condition !== undefined) changes.condition = input.condition;
    if (input.spaceId !== undefined && input.spaceId !== siteSpace.spaceId) {
      const organizationId = model.site.organizationId;
      const space = await store.requireSpace(manager, organizationId, input.spaceId, 'spaceId');
      changes.spaceId = space.id;
    }
    return changes;
  },

  /** Deleting the default promotes the next one. */
  async remove({ manager, model, store }, siteSpace) {
    const wasDefault = model.isDefaultSiteSpace(siteSpace);
    await manager.delete(SiteSpace, siteSpace.id);
    if (wasDefault) {
      const next = model.siteSpacesOf(siteSpace.sectionId).find((s) => s.id !== siteSpace.id);
      await store.setDefaultSiteSpace(manager, model, siteSpace.sectionId, next?.id ?? null);
    }
  },

  position: (input) => ({
    before: pointer(input.position?.before),
    after: pointer(input.position?.after),
  }),
  unknownPointer: () => siteSpaceNotFound(),
};

/**
 * Inserts a site space of `spaceId` (400 naming `field` when it is not a live space of the
 * organization) at the end of a section (null: the root); the first of its siblings becomes
 * their default. The model is not updated: reload it to go on.
 */
async function insertSiteSpace(
  { manager, model, store, now }: NodeWrite,
  spaceId: string,
  field: string,
  sectionId: string | null,
): Promise<string> {
  const space = await store.requireSpace(manager, model.site.organizationId, spaceId, field);
  const id = newId();
  await manager.insert(SiteSpace, {
    id,
    siteId: model.site.id,
    sectionId,
    spaceId: space.id,
    path: derivePath(space.title, 'space', model.siteSpacePaths(sectionId)),
    condition: null,
    position: model.endOfSiteSpaces(sectionId),
    createdAt: now(),
  });
  if (model.defaultSiteSpaceId(sectionId) === null) {
    await store.setDefaultSiteSpace(manager, model, sectionId, id);
  }
  return id;
}

/** `title (copy)`, cut to a section title's 128 characters. */
function sectionCopyTitle(title: string): string {
  const suffix = ' (copy)';
  const kept = [...title]
    .slice(0, 128 - suffix.length)
    .join('')
    .trimEnd();
  return charCount(kept) > 0 ? `${kept}${suffix}` : 'Copy';
}

@Injectable()
export class SiteSpacesService extends StructureNodes<SiteSpaceTypes> {
  constructor(
    store: SiteStructureStore,
    clock: Clock,
    private readonly spaceAccess: SpaceAccessResolver,
    private readonly lifecycle: SpaceLifecycle,
  ) {
    super(store, clock, SITE_SPACES);
  }

  /**
   * `duplicateSiteSpace`: a copy of the site space's space (SpaceLifecycle.duplicate: same
   * content and settings, next to it, needing the create role there), shown by a new site
   * space right after the source, with its condition. The only variant of a section is copied
   * into a new section right after that one (its title with ` (copy)`, its icon, description and
   * condition); otherwise the copy is a variant of the same section (or the root). One
   * transaction; 404 `Site space` when it is not in the site, `Space` when the caller cannot
   * see its space. Bindery has no drafts: `draft: true` is 400.
   */
  async duplicate(
    organizationId: string,
    siteId: string,
    userId: string,
    siteSpaceId: string,
    draft: boolean,
  ): Promise<NodeView<SiteSpace>> {
    if (draft) {
      throw invalidInput('draft: Bindery has no draft site spaces or sections; send false.');
    }
    const { site, result: id } = await this.writeNode(
      organizationId,
      siteId,
      siteSpaceId,
      async ({ manager, model, now }, source) => {
        const access = await this.spaceAccess.reload(manager, userId, source.spaceId);
        if (access.entity.deletedAt !== null) throw notFound('Space');
        const copy = await this.lifecycle.duplicateIn(manager, access, userId);
        const section = source.sectionId === null ? null : model.section(source.sectionId);
        const id = newId();
        const created = now();
        if (section && model.siteSpacesOf(section.id).length === 1) {
          const sectionId = newId();
          const title = sectionCopyTitle(section.title);
          await manager.insert(SiteSection, {
            ...section,
            id: sectionId,
            title,
            path: derivePath(title, 'section', model.sectionPaths()),
            defaultSiteSpaceId: id,
            position: model.endOfChildren(section.sectionGroupId),
            createdAt: created,
          });
          await manager.insert(SiteSpace, {
            id,
            siteId: model.site.id,
            sectionId,
            spaceId: copy.entity.id,
            path: source.path,
            condition: source.condition,
            position: 0,
            createdAt: created,
          });
          const reloaded = await this.store.load(manager, model.site, { lock: true });
          await this.store.move(
            manager,
            reloaded,
            { type: 'site-section', id: sectionId },
            { after: { type: 'site-section', id: section.id } },
          );
          return id;
        }
        await manager.insert(SiteSpace, {
          id,
          siteId: model.site.id,
          sectionId: source.sectionId,
          spaceId: copy.entity.id,
          path: derivePath(copy.entity.title, 'space', model.siteSpacePaths(source.sectionId)),
          condition: source.condition,
          position: model.endOfSiteSpaces(source.sectionId),
          createdAt: created,
        });
        const reloaded = await this.store.load(manager, model.site, { lock: true });
        await this.store.move(
          manager,
          reloaded,
          { type: 'site-space', id },
          { after: { type: 'site-space', id: source.id } },
        );
        return id;
      },
    );
    const view = await this.store.view(site, userId);
    const node = view.model.siteSpace(id);
    if (!node) throw siteSpaceNotFound();
    return { view, node };
  }

  /** {@link insertSiteSpace} in a write already under way (a new site's initial site spaces). */
  insert(
    manager: EntityManager,
    model: StructureModel,
    spaceId: string,
    field: string,
    sectionId: string | null,
  ): Promise<string> {
    return insertSiteSpace(this.writeOn(manager, model), spaceId, field, sectionId);
  }
}
