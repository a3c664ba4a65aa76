import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import stringify from 'json-stable-stringify';
import { LRUCache } from 'lru-cache';
import { createSecretKey, type KeyObject } from 'node:crypto';
import { DataSource } from 'typeorm';
import { VISITOR_CLAIMS_PURPOSE } from '../../../orgs/members/visitor-claims';
import { SiteTokens } from '../../../platform/auth/site-tokens';
import { Clock } from '../../../platform/clock/clock';
import { AppConfig } from '../../../platform/config/app-config';
import { entityFromJson, entityFromRow } from '../../../platform/database/entity-from-row';
import { DomainError, invalidInput, unauthenticated } from '../../../platform/errors/domain-error';
import { sha256Hex } from '../../../platform/ids/ids';
import { Revalidation } from '../../../platform/revalidation/revalidation.service';
import { InstanceSecret } from '../../../platform/settings/instance-secret';
import type { VisitorClaims } from '../../../platform/conditions/evaluate';
import { Site } from '../../entities/site.entity';
import { SitesRepository } from '../../sites.repository';
import { SiteSection } from '../../structure/entities/site-section.entity';
import { SiteSectionGroup } from '../../structure/entities/site-section-group.entity';
import { SiteSpace } from '../../structure/entities/site-space.entity';
import { StructureModel } from '../../structure/structure-model';
import { PublishedContentRepository, type SiteCandidateRow } from '../published-content.repository';
import { SiteVisitorAuth, type VisitorAuthSettings } from '../site-visitor-auth';
import { visibleStructure } from '../visible-structure';
import {
  basePathOf,
  type ParsedSiteUrl,
  parseSiteUrl,
  platformSiteKey,
  proxyCandidates,
} from './published-url';
import { verifyVisitorToken, visitorClaims, type SignedVisitor } from './visitor';

/** What the lookup is asked: GitBook's `resolvePublishedContentByUrl` body. */
export interface LookupRequest {
  url: string;
  visitor?: { type?: 'human' | 'agent'; jwtToken?: string; unsignedClaims?: object };
  redirectOnError?: boolean;
}

/** GitBook's `PublishedSiteContent`. */
export interface PublishedSiteContent {
  site: string;
  siteSection?: string;
  siteSpace: string;
  space: string;
  organization: string;
  pathname: string;
  basePath: string;
  siteBasePath: string;
  canonicalUrl: string;
  complete: boolean;
  apiToken: string;
  shareKey?: string;
  contextId?: string;
}

/** GitBook's `PublishedContentRedirect`. */
export type PublishedContentRedirect =
  | { target: 'application' | 'content'; redirect: string }
  | { target: 'external'; site: string; redirect: string };

export type LookupAnswer = PublishedSiteContent | PublishedContentRedirect;

/** How far unsigned claims may go: they travel inside every site token. */
const MAX_UNSIGNED_CLAIMS_CHARS = 2048;

/** 404, in words a visitor may read (the renderer shows the message as is). */
const noContent = () =>
  new DomainError('not_found', 'PublishedContentNotFound', 'No content found for the URL.');
const invalidVisitorToken = () => unauthenticated('The visitor token is not valid for this site.');

/**
 * The published-content lookup (`resolvePublishedContentByUrl`): which site, section, site
 * space and space a URL shows to a visitor, with the page path left, the base paths links are
 * built from, and a site token to read it all with. A URL is on a site's proxy origin, its
 * custom hostname (then its basename), or the instance's sites URL (organization, then site);
 * a `share-link` site wants an active key as the next segment; a `visitor-auth` site wants a
 * visitor token signed with its key, else the visitor is sent to log in. The site's structure
 * is the one the visitor's claims show (conditions applied): hidden items do not exist here.
 */
@Injectable()
export class PublishedLookupService {
  /**
   * Answers (and 404s: prefixes of every URL are looked up on every page view) by request, for
   * PUBLISHED_LOOKUP_CACHE_SECONDS; a site change made in this process drops them all.
   */
  private readonly cache: LRUCache<string, { answer: LookupAnswer } | { error: DomainError }>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: PublishedContentRepository,
    private readonly siteVisitorAuth: SiteVisitorAuth,
    private readonly siteTokens: SiteTokens,
    private readonly secret: InstanceSecret,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly sites: SitesRepository,
    revalidation: Revalidation,
  ) {
    this.cache = new LRUCache({
      max: 10_000,
      ttl: Math.max(1, config.PUBLISHED_LOOKUP_CACHE_SECONDS) * 1000,
    });
    revalidation.onChange((tags) => {
      if (tags.some((tag) => tag.startsWith('site:'))) this.cache.clear();
    });
  }

  /** The lookup's answer, from the cache when the same request was answered moments ago. */
  async resolve(request: LookupRequest): Promise<LookupAnswer> {
    if (this.config.PUBLISHED_LOOKUP_CACHE_SECONDS === 0)
      return (await this.lookup(request)).answer;
    const key = stringify([
      request.url,
      request.visitor?.jwtToken ?? null,
      request.visitor?.unsignedClaims ?? {},
      request.visitor?.type ?? 'human',
      request.redirectOnError ?? false,
    ]) as string;
    const cached = this.cache.get(key);
    if (cached) {
      if ('error' in cached) throw cached.error;
      return cached.answer;
    }
    try {
      const { answer, tokenExpiresAt } = await this.lookup(request);
      // Never past the token it carries (a visitor's token may end sooner).
      const ttl = Math.min(
        this.config.PUBLISHED_LOOKUP_CACHE_SECONDS * 1000,
        (tokenExpiresAt?.getTime() ?? Infinity) - this.clock.now().getTime(),
      );
      if (ttl > 0) this.cache.set(key, { answer }, { ttl });
      return answer;
    } catch (error) {
      // Not-found answers only: a bad visitor token, or bad input, is answered afresh.
      if (error instanceof DomainError && error.kind === 'not_found')
        this.cache.set(key, { error });
      throw error;
    }
  }

  /** The answer, and when the site token it carries (if any) expires. */
  private async lookup(
    request: LookupRequest,
  ): Promise<{ answer: LookupAnswer; tokenExpiresAt?: Date }> {
    const url = parseSiteUrl(request.url);
    if (!url) throw invalidInput('url must be an absolute http(s) URL.');
    const unsigned = (request.visitor?.unsignedClaims ?? {}) as Record<string, unknown>;
    if (JSON.stringify(unsigned).length > MAX_UNSIGNED_CLAIMS_CHARS) {
      throw invalidInput(
        `visitor.unsignedClaims must not exceed ${MAX_UNSIGNED_CLAIMS_CHARS} characters of JSON.`,
      );
    }

    const match = await this.findSite(url);
    if (!match || !match.site.published) throw noContent();
    const { site } = match;
    const baseSegments = url.segments.slice(0, match.consumed);
    let rest = url.segments.slice(match.consumed);

    let shareLink: { id: string; key: string } | null = null;
    if (site.visibility === 'share-link') {
      const key = rest[0];
      const id = key ? await this.repository.activeShareLinkId(site.id, sha256Hex(key)) : null;
      if (!key || !id) throw noContent();
      shareLink = { id, key };
      baseSegments.push(key);
      rest = rest.slice(1);
    }
    const siteBasePath = basePathOf(baseSegments);

    const visitor = await this.visitor(site, request, unsigned, rest);
    if ('redirect' in visitor) return { answer: visitor.redirect };

    // The structure holds the site spaces of live spaces only.
    const live = new Set(match.model.siteSpaces.map((siteSpace) => siteSpace.spaceId));
    const visible = visibleStructure(match.model, visitor.claims, live);
    const place = locate(visible, rest);
    if (!place) throw noContent();

    const basePath = basePathOf([...baseSegments, ...place.consumed]);
    const pathname = place.rest.join('/');
    const spaces = [...new Set(visible.siteSpaces.map((siteSpace) => siteSpace.spaceId))];
    const hasClaims =
      visitor.signed !== null || Object.keys(visitor.claims.claims.unsigned).length > 0;
    const { token, expiresAt } = this.siteTokens.sign(
      {
        kind: 'site',
        organization: site.organizationId,
        site: site.id,
        siteSpace: place.siteSpace.id,
        ...(place.section ? { siteSection: place.section.id } : {}),
        space: place.siteSpace.spaceId,
        spaces,
        ...(hasClaims ? { claims: visitor.claims.claims } : {}),
        ...(request.visitor?.type === 'agent' ? { visitorType: 'agent' as const } : {}),
        ...(shareLink ? { shareLink: shareLink.id } : {}),
        ...(visitor.authenticated ? { authenticated: true as const } : {}),
      },
      visitor.signed?.expiresAt ?? undefined,
    );
    const answer: PublishedSiteContent = {
      site: site.id,
      ...(place.section ? { siteSection: place.section.id } : {}),
      siteSpace: place.siteSpace.id,
      space: place.siteSpace.spaceId,
      organization: site.organizationId,
      pathname,
      basePath,
      siteBasePath,
      canonicalUrl: canonicalUrl(url, basePath, place.rest),
      complete: place.complete,
      apiToken: token,
      ...(shareLink ? { shareKey: shareLink.key } : {}),
      ...(hasClaims
        ? { contextId: sha256Hex(stringify(visitor.claims.claims) ?? '').slice(0, 20) }
        : {}),
    };
    return { answer, tokenExpiresAt: expiresAt };
  }

  /**
   * The site a URL is under, how many of its path segments name the site, and its structure
   * with the site spaces of live spaces only.
   */
  private async findSite(
    url: ParsedSiteUrl,
  ): Promise<{ site: Site; consumed: number; model: StructureModel } | null> {
    const platform = platformSiteKey(this.config.sitesUrl, url);
    const candidates = await this.repository.siteCandidates(
      url.host,
      proxyCandidates(url),
      platform,
    );
    for (const row of candidates) {
      const consumed = consumedBy(row, url, platform?.consumed ?? null);
      if (consumed === null) continue;
      const site = entityFromRow(this.dataSource, Site, row);
      const model = new StructureModel(
        site,
        row.structure_groups.map((group) =>
          entityFromJson(this.dataSource, SiteSectionGroup, group),
        ),
        row.structure_sections.map((section) =>
          entityFromJson(this.dataSource, SiteSection, section),
        ),
        row.structure_live_site_spaces.map((siteSpace) =>
          entityFromJson(this.dataSource, SiteSpace, siteSpace),
        ),
      );
      return { site, consumed, model };
    }
    return null;
  }

  /**
   * The visitor as the site sees it: its claims (signed ones from a valid visitor token, and
   * unsigned ones, checked against the adaptive schema), or, for a `visitor-auth` site without
   * a valid token, the redirect to its login service (or a 401 when there is none to send to,
   * or when the token was bad and `redirectOnError` is false).
   */
  private async visitor(
    site: Site,
    request: LookupRequest,
    unsigned: Record<string, unknown>,
    rest: string[],
  ): Promise<
    | { claims: VisitorClaims; signed: SignedVisitor | null; authenticated: boolean }
    | { redirect: PublishedContentRedirect }
  > {
    const token = request.visitor?.jwtToken;
    const guarded = site.visibility === 'visitor-auth';
    const settings =
      guarded || (site.adaptiveContent && token)
        ? await this.siteVisitorAuth.visitorAuth(site.id)
        : null;
    let signed = token ? this.verify(site, token, settings) : null;
    if (guarded && signed?.member && !(await this.memberReads(site, signed))) signed = null;
    if (guarded && !signed) {
      if (token && !request.redirectOnError) throw invalidVisitorToken();
      if (!settings?.fallbackURL) throw invalidVisitorToken();
      return { redirect: loginRedirect(site, settings.fallbackURL, rest) };
    }
    return {
      claims: visitorClaims(
        signed?.claims ?? null,
        unsigned,
        (site.adaptiveSchema as Record<string, unknown> | null) ?? null,
      ),
      signed,
      authenticated: guarded,
    };
  }

  /**
   * Whether a member's `docsVisitorClaims` open the `visitor-auth` site: a member with an
   * organization role reads every site of it; a guest only a site granted to it or a team of its
   * (`inviteToSite`), as PublishedSiteAccessPolicy decides for `getPublishedContentSite`.
   */
  private async memberReads(site: Site, signed: SignedVisitor): Promise<boolean> {
    const claims = signed.claims as { role?: unknown; sub?: unknown };
    if (claims.role !== null && claims.role !== undefined) return true;
    if (typeof claims.sub !== 'string') return false;
    const grants = await this.sites.grantRolesOn(site.organizationId, [site.id], claims.sub);
    return (grants.get(site.id) ?? []).length > 0;
  }

  /** A visitor token signed with the site's key, or a member's `docsVisitorClaims`. */
  private verify(
    site: Site,
    token: string,
    settings: VisitorAuthSettings | null,
  ): SignedVisitor | null {
    const keys: { key: KeyObject; organization?: string }[] = [];
    // The site's key is the bytes of its text, as jsonwebtoken reads a string secret.
    if (settings) keys.push({ key: createSecretKey(Buffer.from(settings.privateKey)) });
    for (const key of this.secret.verificationKeys(VISITOR_CLAIMS_PURPOSE)) {
      keys.push({ key, organization: site.organizationId });
    }
    return verifyVisitorToken(token, keys, this.clock.now());
  }
}

/**
 * How many path segments name `row`'s site in `url`, or null when the URL is not under it:
 * its proxy origin's path, its custom hostname's basename (if any), or the sites URL's.
 */
function consumedBy(
  row: SiteCandidateRow,
  url: ParsedSiteUrl,
  platformConsumed: number | null,
): number | null {
  switch (row.matched_by) {
    case 1:
      return row.proxy!.split('/').length - 1;
    case 2:
      if (row.basename === null) return 0;
      return url.segments[0] === row.basename ? 1 : null;
    case 3:
      return platformConsumed;
  }
}

/** Where a URL's segments lead in a visible structure. */
interface Place {
  section: SiteSection | null;
  siteSpace: SiteSpace;
  /** The segments that named the section and site space, as given. */
  consumed: string[];
  /** The segments left: the page path. */
  rest: string[];
  complete: boolean;
}

/**
 * The section (on a site with sections) and site space the segments name: a section's path,
 * else the default section; then a site space's path among its variants, else the default one.
 * `complete` says no other section or site-space segment could still follow.
 */
function locate(model: StructureModel, segments: string[]): Place | null {
  const consumed: string[] = [];
  let rest = segments;
  let section: SiteSection | null = null;
  let alternatives = false;
  if (model.hasSections()) {
    section = findByPath(model.sections, rest[0]) ?? null;
    if (section) {
      consumed.push(rest[0]);
      rest = rest.slice(1);
    } else {
      const id = model.defaultSectionId();
      section = id ? (model.section(id) ?? null) : null;
      if (!section) return null;
      alternatives = model.sections.length > 1;
    }
  }
  const variants = model.siteSpacesOf(section?.id ?? null);
  let siteSpace = findByPath(variants, rest[0]);
  if (siteSpace) {
    // A site space's segment ends the site's part of the URL: no section can follow it.
    consumed.push(rest[0]);
    rest = rest.slice(1);
    alternatives = false;
  } else {
    const id = model.defaultSiteSpaceId(section?.id ?? null);
    siteSpace = id ? model.siteSpace(id) : undefined;
    if (!siteSpace) return null;
    alternatives ||= variants.length > 1;
  }
  return { section, siteSpace, consumed, rest, complete: rest.length > 0 || !alternatives };
}

function findByPath<T extends { path: string }>(items: T[], segment: string | undefined) {
  if (segment === undefined) return undefined;
  const wanted = segment.toLowerCase();
  return items.find((item) => item.path.toLowerCase() === wanted);
}

function canonicalUrl(url: ParsedSiteUrl, basePath: string, rest: string[]): string {
  const path = `${basePath}${rest.map(encodeURIComponent).join('/')}`;
  return `${url.origin}${path === '/' ? '' : path.replace(/\/$/, '')}`;
}

/** To the site's login service, with the path within the site to come back to. */
function loginRedirect(site: Site, fallbackURL: string, rest: string[]): PublishedContentRedirect {
  const login = new URL(fallbackURL);
  login.searchParams.set('location', `/${rest.map(encodeURIComponent).join('/')}`);
  return { target: 'external', site: site.id, redirect: login.toString() };
}
