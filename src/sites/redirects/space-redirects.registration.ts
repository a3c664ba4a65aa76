import { Injectable, OnModuleInit } from '@nestjs/common';
import { In } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { newId } from '../../platform/ids/ids';
import { cacheTag } from '../../platform/revalidation/cache-tags';
import { Revalidation } from '../../platform/revalidation/revalidation.service';
import { SpaceRedirects, type SpaceRedirectsUpdate } from '../../spaces/content/space-redirects';
import { Site } from '../entities/site.entity';
import { SiteStructureStore } from '../structure/site-structure.store';
import { siteSpaceSegments } from './redirect-destinations';
import { encodeSourceSegment, spacePathSource } from './redirect-source';
import {
  type SitePageRedirectKey,
  type SitePageRedirectRow,
  SiteRedirectsRepository,
} from './site-redirects.repository';

/** Rows per statement. */
const BATCH = 1000;

/**
 * Makes the redirects a space asks for (its repository's `.gitbook.yaml`) on each published
 * site showing the space: under each of its site spaces' paths in the site, a live redirect
 * from each source to its page (one the site had from that source is sent there instead: the
 * space's word wins over an automatic redirect or an earlier one), and the redirects of the
 * sources it no longer asks for deleted, those still sent to a page of that site space only.
 * Sources that make no valid source path are left out. Runs in the caller's transaction.
 */
@Injectable()
export class SpaceRedirectsRegistration implements OnModuleInit {
  constructor(
    private readonly spaceRedirects: SpaceRedirects,
    private readonly redirects: SiteRedirectsRepository,
    private readonly structure: SiteStructureStore,
    private readonly revalidation: Revalidation,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.spaceRedirects.register((update) => this.apply(update));
  }

  async apply(update: SpaceRedirectsUpdate): Promise<void> {
    const { manager, spaceId } = update;
    const siteSpaces = await this.redirects.publishedSiteSpacesOf(spaceId, manager);
    if (siteSpaces.length === 0) return;
    const asked = new Set(update.redirects.map((redirect) => redirect.source));
    const dropped = [...new Set(update.previous)].filter((source) => !asked.has(source));
    if (update.redirects.length === 0 && dropped.length === 0) return;

    const sites = await manager.findBy(Site, {
      id: In([...new Set(siteSpaces.map((row) => row.site_id))]),
    });
    // By site and source key: the last redirect of a source wins.
    const writes = new Map<string, SitePageRedirectRow>();
    const deletes = new Map<string, SitePageRedirectKey>();
    for (const site of sites) {
      const model = await this.structure.load(manager, site);
      for (const row of siteSpaces.filter((candidate) => candidate.site_id === site.id)) {
        const siteSpace = model.siteSpace(row.site_space_id);
        if (!siteSpace) continue;
        const prefix = siteSpaceSegments(model, siteSpace).map(encodeSourceSegment);
        for (const redirect of update.redirects) {
          const source = spacePathSource(prefix, redirect.source);
          if (!source) continue;
          writes.set(`${site.id} ${source.key}`, {
            id: newId(),
            siteId: site.id,
            siteSpaceId: siteSpace.id,
            pageId: redirect.pageId,
            source: source.source,
            sourceKey: source.key,
          });
        }
        for (const path of dropped) {
          const source = spacePathSource(prefix, path);
          if (!source) continue;
          deletes.set(`${site.id} ${source.key} ${siteSpace.id}`, {
            siteId: site.id,
            siteSpaceId: siteSpace.id,
            sourceKey: source.key,
          });
        }
      }
    }
    // A source still asked for (under another spelling, or by another site space) is written,
    // not deleted.
    const kept = [...deletes.values()].filter(
      (key) => !writes.has(`${key.siteId} ${key.sourceKey}`),
    );

    const changed = new Set<string>();
    for (let start = 0; start < kept.length; start += BATCH) {
      const sitesChanged = await this.redirects.deleteLiveToPages(
        kept.slice(start, start + BATCH),
        manager,
      );
      sitesChanged.forEach((siteId) => changed.add(siteId));
    }
    const rows = [...writes.values()];
    const now = this.clock.now();
    for (let start = 0; start < rows.length; start += BATCH) {
      const sitesChanged = await this.redirects.upsertLiveToPages(
        rows.slice(start, start + BATCH),
        now,
        manager,
      );
      sitesChanged.forEach((siteId) => changed.add(siteId));
    }
    if (changed.size > 0) {
      await this.revalidation.tags([...changed].map(cacheTag.site), manager);
    }
  }
}
