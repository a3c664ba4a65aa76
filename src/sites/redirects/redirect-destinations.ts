import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ContentReader } from '../../content-engine/reads/content-reader';
import type { SiteReaderActor } from '../../platform/auth/actor';
import type { VisitorClaims } from '../../platform/conditions/evaluate';
import { visitorSeesPage } from '../../platform/conditions/page-visibility';
import { invalidInput } from '../../platform/errors/domain-error';
import { SpacesRepository } from '../../spaces/spaces.repository';
import type { Site } from '../entities/site.entity';
import { readerVisitor } from '../published/site-reader-access';
import { visibleStructure } from '../published/visible-structure';
import { type SiteOrganization, SitesPresenter } from '../sites.presenter';
import type { SiteSection } from '../structure/entities/site-section.entity';
import type { SiteSpace } from '../structure/entities/site-space.entity';
import { SiteStructureStore } from '../structure/site-structure.store';
import type { StructureModel } from '../structure/structure-model';
import type { SiteRedirectInputDestination } from './dto/site-redirect.dto';
import type { SiteRedirectDestination } from './entities/site-redirect.entity';

/**
 * The path segments of a site space inside its site: its section's path unless that is the
 * default section, then its own unless it is its section's default variant (defaults are served
 * at the level above, as the structure's published URLs are).
 */
export function siteSpaceSegments(model: StructureModel, siteSpace: SiteSpace): string[] {
  const section = siteSpace.sectionId === null ? undefined : model.section(siteSpace.sectionId);
  return [
    ...(section ? sectionSegments(model, section) : []),
    ...(model.isDefaultSiteSpace(siteSpace) ? [] : [siteSpace.path]),
  ];
}

export function sectionSegments(model: StructureModel, section: SiteSection): string[] {
  return model.defaultSectionId() === section.id ? [] : [section.path];
}

/** A URL under `base` (no trailing slash) at these segments, each encoded. */
export function urlUnder(base: string, segments: string[]): string {
  return segments.length === 0 ? base : `${base}/${segments.map(encodeURIComponent).join('/')}`;
}

/** The page paths of a space's primary content, read once per space. */
class PrimaryContent {
  private readonly revisions = new Map<string, Promise<string | null>>();

  constructor(
    private readonly spaces: SpacesRepository,
    private readonly reader: ContentReader,
    private readonly manager: EntityManager,
  ) {}

  /**
   * The page with this id, or at this path, in the space's primary content; null: none. Read
   * in the manager's transaction, if any.
   */
  async page(spaceId: string, page: { id: string } | { path: string }) {
    const revisionId = await this.revision(spaceId);
    if (revisionId === null) return null;
    return this.reader.locatePageIn(this.manager, spaceId, revisionId, page);
  }

  private revision(spaceId: string): Promise<string | null> {
    let revision = this.revisions.get(spaceId);
    if (!revision) {
      revision = this.spaces
        .findHead(spaceId, '', this.manager)
        .then((head) => (head && head.deletedAt === null ? head.revisionId : null));
      this.revisions.set(spaceId, revision);
    }
    return revision;
  }
}

/** The destinations of one site's redirects: checked on the way in, resolved to URLs. */
export class SiteDestinations {
  constructor(
    private readonly model: StructureModel,
    private readonly content: PrimaryContent,
    /** The site's published URL. */
    private readonly base: string,
    /** A site's visitor resolving them: pages it does not see are gone. */
    private readonly visitor?: VisitorClaims,
  ) {}

  /**
   * The destination to store for `input`: what it names must be in the site (400 naming
   * `property` otherwise), and a `path` becomes the `site-page` at that path of the first site
   * space (in reading order) that publishes the space.
   */
  async check(
    input: SiteRedirectInputDestination,
    property = 'destination',
  ): Promise<SiteRedirectDestination> {
    switch (input.kind) {
      case 'external':
        return { kind: 'external', url: input.url };
      case 'site-section':
        if (!this.model.section(input.siteSectionId)) {
          throw invalidInput(
            `${property}.siteSectionId: no section ${input.siteSectionId} in this site.`,
          );
        }
        return { kind: 'site-section', siteSectionId: input.siteSectionId };
      case 'site-space':
        this.siteSpace(input.siteSpaceId, property);
        return { kind: 'site-space', siteSpaceId: input.siteSpaceId };
      case 'site-page': {
        const siteSpace = this.siteSpace(input.siteSpaceId, property);
        const page = await this.content.page(siteSpace.spaceId, { id: input.pageId });
        if (!page?.path) {
          throw invalidInput(
            `${property}.pageId: no page ${input.pageId} with a path in the site space's content.`,
          );
        }
        return { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: page.id };
      }
      case 'path': {
        const siteSpace = this.model
          .siteSpacesInOrder()
          .find((candidate) => candidate.spaceId === input.spaceId);
        if (!siteSpace) {
          throw invalidInput(
            `${property}.spaceId: this site does not publish space ${input.spaceId}.`,
          );
        }
        const path = input.path
          .split('/')
          .filter((segment) => segment !== '')
          .map(decodeSegment)
          .join('/');
        const page = path ? await this.content.page(input.spaceId, { path }) : null;
        if (!page) throw invalidInput(`${property}.path: no page at ${path || '/'} in the space.`);
        return { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: page.id };
      }
    }
  }

  /** The absolute URL of a destination; null when what it names is gone from the site. */
  async target(destination: SiteRedirectDestination): Promise<string | null> {
    switch (destination.kind) {
      case 'external':
        return destination.url;
      case 'site-section': {
        // A section is served at its path, showing its default variant.
        const section = this.model.section(destination.siteSectionId);
        return section ? urlUnder(this.base, sectionSegments(this.model, section)) : null;
      }
      case 'site-space': {
        const siteSpace = this.model.siteSpace(destination.siteSpaceId);
        return siteSpace ? urlUnder(this.base, siteSpaceSegments(this.model, siteSpace)) : null;
      }
      case 'site-page': {
        const siteSpace = this.model.siteSpace(destination.siteSpaceId);
        if (!siteSpace) return null;
        const page = await this.content.page(siteSpace.spaceId, { id: destination.pageId });
        if (!page?.path || !visitorSeesPage(page.conditions, this.visitor)) return null;
        return urlUnder(this.base, [
          ...siteSpaceSegments(this.model, siteSpace),
          ...page.path.split('/'),
        ]);
      }
    }
  }

  private siteSpace(siteSpaceId: string, property: string): SiteSpace {
    const siteSpace = this.model.siteSpace(siteSpaceId);
    if (!siteSpace) {
      throw invalidInput(`${property}.siteSpaceId: no site space ${siteSpaceId} in this site.`);
    }
    return siteSpace;
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Opens the destinations of a site's redirects (its structure and its spaces' content). */
@Injectable()
export class SiteRedirectDestinations {
  constructor(
    private readonly structure: SiteStructureStore,
    private readonly spaces: SpacesRepository,
    private readonly reader: ContentReader,
    private readonly sites: SitesPresenter,
  ) {}

  /**
   * The site's structure as it is now in `manager` (its transaction, if any), or as the visitor
   * of `reader` (a site's token) sees it. With `shareKey`, targets are built under the share
   * link's URL (the key is the segment after the site's).
   */
  async open(
    manager: EntityManager,
    site: Site,
    organization: SiteOrganization,
    shareKey?: string,
    reader?: SiteReaderActor,
  ): Promise<SiteDestinations> {
    const loaded = await this.structure.load(manager, site);
    const visitor = reader ? readerVisitor(reader) : undefined;
    const model = reader && visitor ? visibleStructure(loaded, visitor, reader.spaceIds) : loaded;
    const published = this.sites.publishedUrl(site, organization);
    return new SiteDestinations(
      model,
      new PrimaryContent(this.spaces, this.reader, manager),
      shareKey ? `${published}/${encodeURIComponent(shareKey)}` : published,
      visitor,
    );
  }
}
