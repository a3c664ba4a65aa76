import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { ContentReader } from '../../content-engine/reads/content-reader';
import {
  PrimaryMovedListeners,
  type PrimaryMoved,
} from '../../content-engine/writes/primary-moved-listeners';
import { Clock } from '../../platform/clock/clock';
import { newId } from '../../platform/ids/ids';
import { Site } from '../entities/site.entity';
import { SiteStructureStore } from '../structure/site-structure.store';
import { SiteRedirect } from './entities/site-redirect.entity';
import { siteSpaceSegments } from './redirect-destinations';
import { encodeSourceSegment, leftPaths, type LeftPath } from './redirect-source';
import { SiteRedirectsRepository } from './site-redirects.repository';

/** Redirects per insert statement. */
const INSERT_BATCH = 500;

/**
 * Keeps the old URLs of a published space's pages working: when its primary revision moves and
 * pages end up at other paths (moved, or a slug on their path renamed), each published site
 * showing the space gets a live redirect from each old path (under the site space's path in
 * the site) to the page, unless it has a redirect from that path already. Runs in the writer's
 * transaction, in a savepoint of its own: a failure here is logged and never undoes the write.
 */
@Injectable()
export class AutomaticSiteRedirects implements OnModuleInit {
  private readonly logger = new Logger('AutomaticSiteRedirects');

  constructor(
    private readonly listeners: PrimaryMovedListeners,
    private readonly redirects: SiteRedirectsRepository,
    private readonly reader: ContentReader,
    private readonly structure: SiteStructureStore,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.listeners.register((event) => this.primaryMoved(event));
  }

  async primaryMoved(event: PrimaryMoved): Promise<void> {
    const { spaceId, fromRevision, toRevision, manager } = event;
    if (fromRevision === null || fromRevision === toRevision) return;
    // Most spaces are in no published site: one indexed query, and nothing more.
    const siteSpaces = await this.redirects.publishedSiteSpacesOf(spaceId, manager);
    if (siteSpaces.length === 0) return;
    try {
      await manager.transaction((savepoint) =>
        this.redirectMovedPages(savepoint, spaceId, fromRevision, toRevision, siteSpaces),
      );
    } catch (error) {
      this.logger.warn(
        `No redirects for the pages moved in space ${spaceId} (${fromRevision} → ` +
          `${toRevision}): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private async redirectMovedPages(
    manager: EntityManager,
    spaceId: string,
    fromRevision: string,
    toRevision: string,
    siteSpaces: { site_id: string; site_space_id: string }[],
  ): Promise<void> {
    const changes = await this.reader.pagePathChanges(manager, spaceId, fromRevision, toRevision);
    if (changes.length === 0) return;
    const now = this.clock.now();
    const sites = await manager.findBy(Site, {
      id: In([...new Set(siteSpaces.map((row) => row.site_id))]),
    });
    const redirects = new Map<string, SiteRedirect>();
    for (const site of sites) {
      const model = await this.structure.load(manager, site);
      for (const row of siteSpaces.filter((candidate) => candidate.site_id === site.id)) {
        const siteSpace = model.siteSpace(row.site_space_id);
        if (!siteSpace) continue;
        const prefix = siteSpaceSegments(model, siteSpace).map(encodeSourceSegment);
        for (const left of leftPaths(prefix, changes)) {
          redirects.set(
            `${site.id} ${left.key}`,
            this.redirectFrom(site.id, siteSpace.id, left, now),
          );
        }
      }
    }
    const rows = [...redirects.values()];
    for (let start = 0; start < rows.length; start += INSERT_BATCH) {
      await this.redirects.insertMissing(rows.slice(start, start + INSERT_BATCH), manager);
    }
  }

  /** A live redirect from a path a page left to that page. */
  private redirectFrom(
    siteId: string,
    siteSpaceId: string,
    left: LeftPath,
    now: Date,
  ): SiteRedirect {
    return Object.assign(new SiteRedirect(), {
      id: newId(),
      siteId,
      source: left.source,
      sourceKey: left.key,
      wildcardPrefix: null,
      draft: false,
      captureWildcard: false,
      permanent: false,
      destination: { kind: 'site-page', siteSpaceId, pageId: left.pageId },
      createdAt: now,
      updatedAt: null,
      writtenAt: now,
    });
  }
}
