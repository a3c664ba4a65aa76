import { Injectable } from '@nestjs/common';
import type { PresentedChangeRequest } from '../content/merged-change-requests';
import { OrganizationsPresenter } from '../../orgs/organizations.presenter';
import type { Page } from '../../platform/pagination/page';
import { SpacesPresenter } from '../spaces.presenter';
import { ContentPresenter, contentView, type ContentView } from '../content/content.presenter';
import type {
  ContentLocationResponse,
  ContentReferencesPageResponse,
  ContentReferenceUsageResponse,
} from './dto/links.dto';
import type { LinkLocation, LinkUsage } from '../../content-engine/links/link-analysis';
import type { BacklinksListing, LinksListing, LinksScope } from './links.service';

/** What every location of a response embeds, built once per response. */
interface Context {
  scope: LinksScope;
  base: Pick<ContentLocationResponse, 'organization' | 'space' | 'versionContext'>;
  view: ContentView;
}

/**
 * GitBook's `ContentReferenceUsage` and `ContentLocation` shapes. Every location repeats its
 * Organization and Space, so they carry only the fields 0.146.0 requires of them; the page
 * (without subpages) or file is whole. Given the change request whose content was listed, page
 * and file locations point into it and name it, summarized, as their `versionContext`.
 */
@Injectable()
export class LinksPresenter {
  constructor(
    private readonly organizations: OrganizationsPresenter,
    private readonly spaces: SpacesPresenter,
    private readonly content: ContentPresenter,
  ) {}

  links(
    listing: LinksListing,
    changeRequest?: PresentedChangeRequest,
  ): ContentReferencesPageResponse {
    const context = this.context(listing.scope, changeRequest);
    return {
      items: listing.page.items.map((usage) => this.usage(usage, context)),
      count: listing.page.count,
      ...(listing.page.next ? { next: listing.page.next } : {}),
      stats: listing.stats,
    };
  }

  backlinks(
    listing: BacklinksListing,
    changeRequest?: PresentedChangeRequest,
  ): Page<ContentLocationResponse> {
    const context = this.context(listing.scope, changeRequest);
    return {
      ...listing.page,
      items: listing.page.items.map((page) => this.pageLocation(page, context)),
    };
  }

  private context(scope: LinksScope, changeRequest?: PresentedChangeRequest): Context {
    const { space } = scope;
    return {
      scope,
      base: {
        organization: this.organizations.summary(scope.organization, scope.organizationRole),
        space: this.spaces.summary(space.entity, space.role),
        ...(changeRequest ? { versionContext: { type: 'changeRequest', changeRequest } } : {}),
      },
      view: contentView(space, { changeRequestNumber: changeRequest?.number }),
    };
  }

  private usage(usage: LinkUsage, context: Context): ContentReferenceUsageResponse {
    const target = this.target(usage, context);
    return {
      status: usage.status,
      relation: usage.relation,
      ...(target ? { targetReference: target } : {}),
      locationReferences: usage.locations.map((location) =>
        this.pageLocation(location.page, context, location),
      ),
    };
  }

  private target(usage: LinkUsage, context: Context): ContentLocationResponse | undefined {
    const target = usage.target;
    switch (target.kind) {
      case 'url':
        return { kind: 'url', url: target.url };
      case 'page':
        if (target.exists) return this.pageLocation(target.page, context);
        // A path that matches no page is named as written.
        if (target.url !== undefined) return { kind: 'url', url: target.url };
        return this.deadPageLocation(target.page, context);
      case 'anchor': {
        const page = target.pageExists
          ? this.pageLocation(target.page, context)
          : this.deadPageLocation(target.page, context);
        return page && { ...page, internalLocation: { type: 'anchor', anchor: target.anchor } };
      }
      case 'file': {
        const file = context.scope.links.files.get(target.file);
        return file
          ? { kind: 'file', ...context.base, file: this.content.file(file, context.view) }
          : undefined;
      }
      case 'reusable-content':
      case 'other':
        return undefined;
    }
  }

  /**
   * A page the revision no longer has, as the nearest earlier revision had it (its URL opens
   * that revision); undefined for a page no revision of its recent history has.
   */
  private deadPageLocation(pageId: string, context: Context): ContentLocationResponse | undefined {
    const dead = context.scope.links.deadPages.get(pageId);
    if (!dead) return undefined;
    const { versionContext: _inChangeRequest, ...base } = context.base;
    const view = contentView(context.scope.space, { revisionId: dead.revisionId });
    return { kind: 'page', ...base, page: this.content.page(dead.tree, view) };
  }

  private pageLocation(
    pageId: string,
    context: Context,
    location?: LinkLocation,
  ): ContentLocationResponse {
    const tree = context.scope.links.pages.get(pageId);
    if (!tree) throw new Error(`Page ${pageId} is not in the revision's links`);
    return {
      kind: 'page',
      ...context.base,
      page: this.content.page({ ...tree, pages: [] }, context.view),
      ...(location?.node !== undefined
        ? { internalLocation: { type: 'node', node: location.node } }
        : {}),
    };
  }
}
