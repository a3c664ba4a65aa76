import { Injectable } from '@nestjs/common';
import { SiteTokens } from '../../platform/auth/site-tokens';
import { Clock } from '../../platform/clock/clock';
import { AppConfig } from '../../platform/config/app-config';
import type { VisitorClaims } from '../../platform/conditions/evaluate';
import { invalidInput } from '../../platform/errors/domain-error';
import type { Site } from '../entities/site.entity';
import { SiteStructureService } from '../structure/site-structure.service';
import { SitePreviewQueryDto } from './published-site.dto';
import { parseRison } from './rison';
import { visibleStructure } from './visible-structure';

/** A preview opens for an hour (GitBook's "time-limited URL, valid for 1 hour"). */
export const PREVIEW_LIFETIME_MS = 60 * 60 * 1000;
/** As the lookup's unsigned claims: they travel inside the token. */
const MAX_CLAIMS_CHARS = 2048;

/**
 * `getSitePublishingPreviewById`: a URL of GitBook's open-source renderer that shows the site as
 * it would be published, whether it is or not. The renderer's multi-id mode
 * (`/~site/<siteId>/<path>?token=…&api=…`) reads the site with the token given, here a site token
 * for one hour marked `preview` (the site opens to it whatever its state and visibility,
 * published-content.repository), naming the site space previewed and, as the lookup's do, the
 * spaces a visitor with `claims` sees, among those the caller may read itself. `draft` (default
 * true) shows draft external links too. Bindery has no other drafts: the content is each space's
 * primary content, as a visitor would read it.
 */
@Injectable()
export class SitePreviewService {
  constructor(
    private readonly structure: SiteStructureService,
    private readonly tokens: SiteTokens,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async preview(site: Site, userId: string, query: SitePreviewQueryDto): Promise<{ url: string }> {
    const renderer = this.config.rendererPublicUrl;
    if (renderer === undefined) {
      throw invalidInput(
        'Site previews need a renderer: set RENDERER_PUBLIC_URL (or RENDERER_URL) to its URL.',
      );
    }
    const claims = previewClaims(query.claims);
    const path = previewPath(query.target);
    const view = await this.structure.view(site, userId);
    // The spaces the caller may read itself, live: a preview opens nothing more to it.
    const readable = new Set(
      [...view.spaces.values()]
        .filter(({ space, role }) => role !== null && space.deletedAt === null)
        .map(({ space }) => space.id),
    );
    const drafts = query.draft !== false;
    const model = visibleStructure(view.model, { claims } as VisitorClaims, readable, { drafts });
    let siteSpaceId: string | null;
    if (query.siteSpace !== undefined) {
      if (!view.model.siteSpace(query.siteSpace)) {
        throw invalidInput(`siteSpace: no site space ${query.siteSpace} in this site.`);
      }
      if (!model.siteSpace(query.siteSpace)) {
        throw invalidInput(
          `siteSpace: ${query.siteSpace} is not shown to a visitor with these claims.`,
        );
      }
      siteSpaceId = query.siteSpace;
    } else {
      siteSpaceId = model.defaultSiteSpaceId(model.hasSections() ? model.defaultSectionId() : null);
    }
    const siteSpace = siteSpaceId === null ? undefined : model.siteSpace(siteSpaceId);
    if (!siteSpace) throw invalidInput('This site shows no space to preview.');
    const { token } = this.tokens.sign(
      {
        kind: 'site',
        organization: site.organizationId,
        site: site.id,
        siteSpace: siteSpace.id,
        ...(siteSpace.sectionId !== null ? { siteSection: siteSpace.sectionId } : {}),
        space: siteSpace.spaceId,
        spaces: [...new Set(model.siteSpaces.map((s) => s.spaceId))],
        claims,
        preview: { draft: drafts },
      },
      new Date(this.clock.now().getTime() + PREVIEW_LIFETIME_MS),
    );
    const url = new URL(`${renderer}/~site/${encodeURIComponent(site.id)}${path}`);
    url.searchParams.set('token', token);
    url.searchParams.set('api', this.config.publicUrl);
    return { url: url.toString() };
  }
}

/** The visitor's claims from `claims` (Rison), with `unsigned` as the lookup gives it. */
function previewClaims(text: string | undefined): Record<string, unknown> {
  if (text === undefined || text === '') return { unsigned: {} };
  if ([...text].length > MAX_CLAIMS_CHARS) {
    throw invalidInput(`claims: at most ${MAX_CLAIMS_CHARS} characters.`);
  }
  let parsed: unknown;
  try {
    parsed = parseRison(text);
  } catch (error) {
    throw invalidInput(`claims: not Rison (${(error as Error).message}).`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalidInput('claims: must be a Rison object, such as (plan:pro).');
  }
  return { unsigned: {}, ...(parsed as Record<string, unknown>) };
}

/** The page path the preview opens (`target`, a path in the space previewed; `/` when absent). */
function previewPath(target: string | undefined): string {
  if (target === undefined || target === '') return '/';
  if (!target.startsWith('/') || target.startsWith('//')) {
    throw invalidInput('target: a path in the site space previewed, starting with "/".');
  }
  const url = new URL(target, 'http://preview.invalid');
  return url.pathname;
}
