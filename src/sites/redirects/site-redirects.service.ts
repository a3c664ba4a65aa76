import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { SiteReaderActor } from '../../platform/auth/actor';
import { sha256Hex } from '../../platform/ids/ids';
import { PublishedContentRepository } from '../published/published-content.repository';
import { Revalidation } from '../../platform/revalidation/revalidation.service';
import { Clock } from '../../platform/clock/clock';
import { DomainError, invalidInput, notFound } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import type { Page } from '../../platform/pagination/page';
import type { Site } from '../entities/site.entity';
import type { SiteOrganization } from '../sites.presenter';
import { SitesRepository } from '../sites.repository';
import { siteNotFound } from '../sites.service';
import type {
  BulkSiteRedirectItem,
  CreateSiteRedirectDto,
  ListSiteRedirectsQueryDto,
  UpdateSiteRedirectDto,
} from './dto/site-redirect.dto';
import type { BulkStatus } from './dto/site-redirect.response';
import { SiteRedirect } from './entities/site-redirect.entity';
import { SiteRedirectDestinations, type SiteDestinations } from './redirect-destinations';
import { capturedSuffix, sourceKey } from './redirect-source';
import { type SiteRedirectChanges, SiteRedirectsRepository } from './site-redirects.repository';

export const siteRedirectNotFound = () => notFound('Site redirect');

const sourceTaken = (existing: SiteRedirect) =>
  new DomainError(
    'conflict',
    'SiteRedirectSourceTaken',
    `The site already has a ${existing.draft ? 'draft' : 'live'} redirect from ` +
      `${existing.source} (${existing.id}); sources are compared whatever their case and escapes.`,
  );

/** How one item of a bulk write went (GitBook's per-item result). */
export interface BulkResult {
  status: BulkStatus;
  source: string;
  draft: boolean;
  id?: string;
  error?: string;
}

/** A live redirect that a path falls under, and the absolute URL it sends to. */
export interface ResolvedRedirect {
  redirect: SiteRedirect;
  target: string;
}

/**
 * A site's redirects: written one by one or in bulk, each source once among the live ones and
 * once among the drafts (publishing a draft replaces the live redirect of its source), and
 * resolved for a path the published site does not serve.
 */
@Injectable()
export class SiteRedirectsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly redirects: SiteRedirectsRepository,
    private readonly destinations: SiteRedirectDestinations,
    private readonly sites: SitesRepository,
    private readonly clock: Clock,
    private readonly revalidation: Revalidation,
    private readonly shareLinks: PublishedContentRepository,
  ) {}

  list(site: Site, query: ListSiteRedirectsQueryDto): Promise<Page<SiteRedirect>> {
    return this.redirects.list(
      site.id,
      { draft: query.draft ?? false, search: query.search },
      query.orderBy ?? 'createdAt',
      query,
    );
  }

  create(
    site: Site,
    organization: SiteOrganization,
    input: CreateSiteRedirectDto,
  ): Promise<SiteRedirect> {
    return this.dataSource.transaction(async (manager) => {
      const destinations = await this.open(manager, site, organization);
      const destination = await destinations.check(input.destination);
      const draft = input.draft ?? false;
      const key = sourceKey(input.source);
      const existing = await this.redirects.findBySourceKey(site.id, draft, key.key, manager);
      if (existing) throw sourceTaken(existing);
      const now = this.clock.now();
      const redirect = manager.create(SiteRedirect, {
        id: newId(),
        siteId: site.id,
        source: input.source,
        sourceKey: key.key,
        wildcardPrefix: key.wildcardPrefix,
        draft,
        captureWildcard: input.captureWildcard ?? false,
        permanent: input.permanent ?? false,
        destination,
        createdAt: now,
        updatedAt: null,
        writtenAt: now,
      });
      await this.redirects.insert(redirect, manager);
      await this.revalidation.site(site.id, manager);
      return redirect;
    });
  }

  /**
   * Changes the fields given. A draft made live (`draft: false`) replaces the live redirect of
   * its source, as publishing it in bulk does; any other clash of sources is 409.
   */
  update(
    site: Site,
    organization: SiteOrganization,
    redirectId: string,
    input: UpdateSiteRedirectDto,
  ): Promise<SiteRedirect> {
    if (Object.values(input).every((value) => value === undefined)) {
      throw invalidInput(
        'Give at least one of source, captureWildcard, draft, permanent, destination.',
      );
    }
    return this.dataSource.transaction(async (manager) => {
      const redirect = await this.redirects.findById(site.id, redirectId, manager);
      if (!redirect) throw siteRedirectNotFound();
      const promoted = redirect.draft && input.draft === false;
      if (input.source !== undefined) {
        const key = sourceKey(input.source);
        redirect.source = input.source;
        redirect.sourceKey = key.key;
        redirect.wildcardPrefix = key.wildcardPrefix;
      }
      if (input.draft !== undefined) redirect.draft = input.draft;
      if (input.captureWildcard !== undefined) redirect.captureWildcard = input.captureWildcard;
      if (input.permanent !== undefined) redirect.permanent = input.permanent;
      if (input.destination !== undefined) {
        const destinations = await this.open(manager, site, organization);
        redirect.destination = await destinations.check(input.destination);
      }
      const clash = await this.redirects.findBySourceKey(
        site.id,
        redirect.draft,
        redirect.sourceKey,
        manager,
      );
      if (clash && clash.id !== redirect.id) {
        if (!promoted) throw sourceTaken(clash);
        await this.redirects.delete(site.id, clash.id, manager);
      }
      const now = this.clock.now();
      redirect.updatedAt = now;
      redirect.writtenAt = now;
      await this.redirects.update(redirect.id, changesOf(redirect), manager);
      await this.revalidation.site(site.id, manager);
      return redirect;
    });
  }

  /** Deletes the redirect; answers whether there was one. */
  async remove(site: Site, redirectId: string): Promise<boolean> {
    const deleted = await this.redirects.delete(site.id, redirectId);
    if (deleted) await this.revalidation.site(site.id);
    return deleted;
  }

  /**
   * Processes the items in order, each on its own: one that cannot be (a destination not in
   * the site, a draft to publish that does not exist) is answered `error` and changes nothing.
   * The site's redirect writes wait for one another (its row is locked), so no item meets a
   * concurrent write of the same source.
   */
  bulkUpsert(
    site: Site,
    organization: SiteOrganization,
    items: BulkSiteRedirectItem[],
  ): Promise<BulkResult[]> {
    return this.dataSource.transaction(async (manager) => {
      if (!(await this.sites.findDefaults(site.id, { lock: true }, manager))) throw siteNotFound();
      const destinations = await this.open(manager, site, organization);
      const results: BulkResult[] = [];
      for (const [index, item] of items.entries()) {
        const draft = item.intent === 'draft';
        try {
          results.push(
            item.intent === 'publish'
              ? await this.publish(manager, site, item.source)
              : await this.upsert(manager, site, destinations, index, item),
          );
        } catch (error) {
          if (!(error instanceof DomainError) || error.kind === 'unavailable') throw error;
          results.push({ status: 'error', source: item.source, draft, error: error.message });
        }
      }
      await this.revalidation.site(site.id, manager);
      return results;
    });
  }

  /**
   * The live redirect of `source`: the one with that source, else (for a path that is not a
   * wildcard itself) the longest wildcard it falls under; with the absolute URL it sends to,
   * what the wildcard captured appended when it says so. 404 when there is none, or when what
   * it sends to is no longer in the site, or, for `reader` (a site's token), not in the site
   * as its visitor sees it.
   */
  async resolve(
    site: Site,
    organization: SiteOrganization,
    source: string,
    shareKey?: string,
    reader?: SiteReaderActor,
  ): Promise<ResolvedRedirect> {
    const manager = this.dataSource.manager;
    const key = sourceKey(source);
    const redirect =
      (await this.redirects.findBySourceKey(site.id, false, key.key, manager)) ??
      (key.wildcardPrefix === null
        ? await this.redirects.findLiveWildcard(site.id, key.key, manager)
        : null);
    if (!redirect) throw siteRedirectNotFound();
    const captured =
      redirect.wildcardPrefix !== null && key.wildcardPrefix === null
        ? capturedSuffix(source, redirect.wildcardPrefix)
        : '';
    if (captured === null) throw siteRedirectNotFound();
    // A share link's targets keep its key, when it is one that opens the site.
    const opens =
      shareKey !== undefined &&
      site.visibility === 'share-link' &&
      (await this.shareLinks.activeShareLinkId(site.id, sha256Hex(shareKey))) !== null;
    const destinations = await this.destinations.open(
      manager,
      site,
      organization,
      opens ? shareKey : undefined,
      reader,
    );
    const target = await destinations.target(redirect.destination);
    if (target === null) throw siteRedirectNotFound();
    return {
      redirect,
      target:
        redirect.captureWildcard && captured !== ''
          ? appendCaptured(target, captured, redirect.source.endsWith('/*'))
          : target,
    };
  }

  private open(
    manager: EntityManager,
    site: Site,
    organization: SiteOrganization,
  ): Promise<SiteDestinations> {
    return this.destinations.open(manager, site, organization);
  }

  private async publish(manager: EntityManager, site: Site, source: string): Promise<BulkResult> {
    const key = sourceKey(source).key;
    const draft = await this.redirects.findBySourceKey(site.id, true, key, manager);
    if (!draft) throw invalidInput(`No draft redirect from ${source} to publish.`);
    const live = await this.redirects.findBySourceKey(site.id, false, key, manager);
    // Into the live redirect's row when there is one (its id stays), else the draft's own.
    const id = live?.id ?? draft.id;
    if (live) await this.redirects.delete(site.id, draft.id, manager);
    const now = this.clock.now();
    await this.redirects.update(
      id,
      changesOf({ ...draft, draft: false, updatedAt: now, writtenAt: now }),
      manager,
    );
    return { status: 'published', source, draft: false, id };
  }

  private async upsert(
    manager: EntityManager,
    site: Site,
    destinations: SiteDestinations,
    index: number,
    item: Exclude<BulkSiteRedirectItem, { intent: 'publish' }>,
  ): Promise<BulkResult> {
    const draft = item.intent === 'draft';
    const key = sourceKey(item.source);
    const existing = await this.redirects.findBySourceKey(site.id, draft, key.key, manager);
    const result = { source: item.source, draft };
    if (item.destination === null) {
      if (!existing) {
        throw invalidInput(
          `No ${draft ? 'draft' : 'live'} redirect from ${item.source} to delete.`,
        );
      }
      await this.redirects.delete(site.id, existing.id, manager);
      return { status: 'deleted', ...result };
    }
    const destination = await destinations.check(
      item.destination,
      `redirects.${index}.destination`,
    );
    const now = this.clock.now();
    const fields = {
      source: item.source,
      sourceKey: key.key,
      wildcardPrefix: key.wildcardPrefix,
      draft,
      captureWildcard: item.captureWildcard ?? false,
      permanent: item.permanent ?? existing?.permanent ?? false,
      destination,
      writtenAt: now,
    };
    if (existing) {
      await this.redirects.update(existing.id, { ...fields, updatedAt: now }, manager);
      return { status: 'updated', ...result, id: existing.id };
    }
    const id = newId();
    await this.redirects.insert(
      manager.create(SiteRedirect, {
        id,
        siteId: site.id,
        ...fields,
        createdAt: now,
        updatedAt: null,
      }),
      manager,
    );
    return { status: 'created', ...result, id };
  }
}

/** The columns of a redirect that an update writes. */
function changesOf(redirect: SiteRedirect): SiteRedirectChanges {
  return {
    source: redirect.source,
    sourceKey: redirect.sourceKey,
    wildcardPrefix: redirect.wildcardPrefix,
    draft: redirect.draft,
    captureWildcard: redirect.captureWildcard,
    permanent: redirect.permanent,
    destination: redirect.destination,
    updatedAt: redirect.updatedAt,
    writtenAt: redirect.writtenAt,
  };
}

/** `target` with what a wildcard captured appended: below its path for `/*`, else right after. */
function appendCaptured(target: string, captured: string, below: boolean): string {
  const url = new URL(target);
  url.pathname = below
    ? `${url.pathname.replace(/\/$/, '')}/${captured}`
    : `${url.pathname}${captured}`;
  return url.toString();
}
