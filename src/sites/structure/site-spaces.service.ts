import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { DomainError, invalidInput } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import type { Page } from '../../platform/pagination/page';
import { Site } from '../entities/site.entity';
import { SitesService } from '../sites.service';
import {
  AddSiteSpaceDto,
  ListSiteSpacesQueryDto,
  MoveSiteSpaceDto,
  UpdateSiteSpaceDto,
} from './dto/site-space.dto';
import { SiteSpace } from './entities/site-space.entity';
import { derivePath } from './paths';
import { SiteStructureStore, siteSpaceNotFound, StructureView } from './site-structure.store';
import type { StructureModel } from './structure-model';

/** A site space and the structure it is presented in. */
export interface SiteSpaceView {
  view: StructureView;
  siteSpace: SiteSpace;
}

export const pathTaken = (path: string, sectionId: string | null) =>
  new DomainError(
    'conflict',
    'SiteSpacePathTaken',
    `path: "${path}" is already the path of another site space ${
      sectionId === null ? 'at the root of this site' : 'of this section'
    }.`,
  );

/**
 * The site spaces of a site: the spaces it publishes, as variants of its sections or, for a site
 * without sections, at its root. The first site space of a section (or the root) is its default;
 * deleting the default makes the next one the default.
 */
@Injectable()
export class SiteSpacesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly sites: SitesService,
    private readonly store: SiteStructureStore,
  ) {}

  /** In the order a reader meets them: the root's, then each section's. */
  async list(
    organizationId: string,
    siteId: string,
    userId: string,
    query: ListSiteSpacesQueryDto,
  ): Promise<Page<SiteSpaceView>> {
    const site = await this.sites.findForOrganization(
      this.dataSource.manager,
      organizationId,
      siteId,
    );
    return this.store.listPage(site, userId, query, {
      name: `site-spaces:${query.default ?? ''}`,
      items: (view) =>
        view.model
          .siteSpacesInOrder()
          .filter(
            (siteSpace) =>
              query.default === undefined ||
              view.model.isDefaultSiteSpace(siteSpace) === query.default,
          )
          .map((siteSpace) => ({ view, siteSpace })),
    });
  }

  /**
   * Adds a space: to `sectionId`, else to the default section, else (a site without sections)
   * at the root; at the end of its siblings, with a path from the space's title.
   */
  async add(
    organizationId: string,
    siteId: string,
    userId: string,
    input: AddSiteSpaceDto,
  ): Promise<SiteSpaceView> {
    const { site, id } = await this.dataSource.transaction(async (manager) => {
      const site = await this.sites.findForOrganization(manager, organizationId, siteId);
      const model = await this.store.load(manager, site, { lock: true });
      let sectionId: string | null = null;
      if (input.sectionId !== undefined) {
        if (!model.section(input.sectionId)) {
          throw invalidInput(`sectionId: no section ${input.sectionId} in this site.`);
        }
        sectionId = input.sectionId;
      } else if (model.hasSections()) {
        sectionId = model.defaultSectionId();
      }
      const id = await this.insert(manager, model, input.spaceId, 'spaceId', sectionId);
      return { site, id };
    });
    return this.viewOf(site, userId, id);
  }

  /**
   * Inserts a site space of `spaceId` at the end of a section (null: the root); the first of its
   * siblings becomes their default. The model is not updated: reload it to go on.
   */
  async insert(
    manager: EntityManager,
    model: StructureModel,
    spaceId: string,
    field: string,
    sectionId: string | null,
  ): Promise<string> {
    const space = await this.store.requireSpace(manager, model.site.organizationId, spaceId, field);
    const id = newId();
    await manager.insert(SiteSpace, {
      id,
      siteId: model.site.id,
      sectionId,
      spaceId: space.id,
      path: derivePath(space.title, 'space', model.siteSpacePaths(sectionId)),
      condition: null,
      position: model.endOfSiteSpaces(sectionId),
      createdAt: this.clock.now(),
    });
    if (model.defaultSiteSpaceId(sectionId) === null) {
      await this.store.setDefaultSiteSpace(manager, model, sectionId, id);
    }
    return id;
  }

  /** `path` (unique among its siblings: 409), `condition` (null removes it), `spaceId`. */
  async update(
    organizationId: string,
    siteId: string,
    userId: string,
    siteSpaceId: string,
    input: UpdateSiteSpaceDto,
  ): Promise<SiteSpaceView> {
    const site = await this.dataSource.transaction(async (manager) => {
      const site = await this.sites.findForOrganization(manager, organizationId, siteId);
      const model = await this.store.load(manager, site, { lock: true });
      const siteSpace = model.siteSpace(siteSpaceId);
      if (!siteSpace) throw siteSpaceNotFound();
      const changes: Partial<SiteSpace> = {};
      if (input.path !== undefined && input.path !== siteSpace.path) {
        if (model.siteSpacePaths(siteSpace.sectionId).has(input.path)) {
          throw pathTaken(input.path, siteSpace.sectionId);
        }
        changes.path = input.path;
      }
      if (input.condition !== undefined) changes.condition = input.condition;
      if (input.spaceId !== undefined && input.spaceId !== siteSpace.spaceId) {
        const space = await this.store.requireSpace(
          manager,
          organizationId,
          input.spaceId,
          'spaceId',
        );
        changes.spaceId = space.id;
      }
      if (Object.keys(changes).length > 0) await manager.update(SiteSpace, siteSpace.id, changes);
      return site;
    });
    return this.viewOf(site, userId, siteSpaceId);
  }

  /** Also 204 when there is no such site space; deleting the default promotes the next one. */
  async remove(organizationId: string, siteId: string, siteSpaceId: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const site = await this.sites.findForOrganization(manager, organizationId, siteId);
      const model = await this.store.load(manager, site, { lock: true });
      const siteSpace = model.siteSpace(siteSpaceId);
      if (!siteSpace) return;
      const wasDefault = model.isDefaultSiteSpace(siteSpace);
      await manager.delete(SiteSpace, siteSpace.id);
      if (wasDefault) {
        const next = model.siteSpacesOf(siteSpace.sectionId).find((s) => s.id !== siteSpace.id);
        await this.store.setDefaultSiteSpace(manager, model, siteSpace.sectionId, next?.id ?? null);
      }
    });
  }

  /** Deprecated move: among its siblings; 404 for an unknown target, 400 for a non-sibling. */
  async move(
    organizationId: string,
    siteId: string,
    userId: string,
    siteSpaceId: string,
    input: MoveSiteSpaceDto,
  ): Promise<SiteSpaceView> {
    const site = await this.dataSource.transaction(async (manager) => {
      const site = await this.sites.findForOrganization(manager, organizationId, siteId);
      const model = await this.store.load(manager, site, { lock: true });
      if (!model.siteSpace(siteSpaceId)) throw siteSpaceNotFound();
      const pointer = (p?: { siteSpace: string }) =>
        p && { type: 'site-space' as const, id: p.siteSpace };
      await this.store.move(
        manager,
        model,
        { type: 'site-space', id: siteSpaceId },
        { before: pointer(input.position?.before), after: pointer(input.position?.after) },
        () => siteSpaceNotFound(),
      );
      return site;
    });
    return this.viewOf(site, userId, siteSpaceId);
  }

  private async viewOf(site: Site, userId: string, siteSpaceId: string): Promise<SiteSpaceView> {
    const view = await this.store.view(site, userId);
    const siteSpace = view.model.siteSpace(siteSpaceId);
    if (!siteSpace) throw siteSpaceNotFound();
    return { view, siteSpace };
  }
}
