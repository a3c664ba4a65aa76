import { Injectable } from '@nestjs/common';
import { ChangeRequestsPresenter } from '../change-requests/change-requests.presenter';
import { ChangeRequestsService } from '../change-requests/change-requests.service';
import { CollectionAccessResolver } from '../collections/collection-access.resolver';
import { CollectionsPresenter } from '../collections/collections.presenter';
import { ContentReader, type ReadRevision } from '../content-engine/reads/content-reader';
import { AppConfig } from '../platform/config/app-config';
import { DomainError, invalidInput } from '../platform/errors/domain-error';
import { PublishedLookupService } from '../sites/published/lookup/published-lookup.service';
import { contentView } from '../spaces/content/content.presenter';
import { RevisionContent } from '../spaces/content/revision-content';
import { SpaceAccessResolver, type SpaceAccess } from '../spaces/space-access.resolver';
import { SpacesPresenter } from '../spaces/spaces.presenter';
import { parseAppContentUrl } from './content-url';
import type { ContentByUrlResponse } from './dto/content-by-url.dto';

const noContent = () =>
  new DomainError('not_found', 'ContentNotFound', 'No content found for this URL.');

/**
 * `getContentByUrl`: the content a URL of Bindery names, as the caller sees it. An app URL
 * (APP_URL) names a collection, a space, a change request or a revision, then a page path; any
 * other URL is tried as a published site's (the published lookup, as a visitor without claims
 * would open it: its space and page path). What the caller does not see answers 404, as
 * what does not exist.
 */
@Injectable()
export class ContentByUrlService {
  constructor(
    private readonly config: AppConfig,
    private readonly spaceAccess: SpaceAccessResolver,
    private readonly collectionAccess: CollectionAccessResolver,
    private readonly spaces: SpacesPresenter,
    private readonly collections: CollectionsPresenter,
    private readonly changeRequests: ChangeRequestsService,
    private readonly changeRequestsPresenter: ChangeRequestsPresenter,
    private readonly reader: ContentReader,
    private readonly content: RevisionContent,
    private readonly published: PublishedLookupService,
  ) {}

  async resolve(userId: string, value: string): Promise<ContentByUrlResponse> {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw invalidInput('url must be an absolute http or https URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw invalidInput('url must be an absolute http or https URL');
    }
    // Anything but content of the app (another origin, or another path where the app and the
    // sites share one) may be a published site's.
    const app = parseAppContentUrl(url, this.config.appUrl);
    if (!app) return this.publishedContent(userId, url);

    if (app.kind === 'collection') {
      const access = await this.collectionAccess.resolve(userId, app.collectionId);
      if (!access?.entity || access.organizationId !== app.organizationId) throw noContent();
      return { collection: this.collections.present(access.entity, access.role) };
    }
    const space = await this.seenSpace(userId, app.spaceId);
    if (space.organizationId !== app.organizationId) throw noContent();
    const answer: ContentByUrlResponse = {
      space: this.spaces.present(space.entity, space.role),
    };
    if (app.changeRequest !== undefined) {
      const view = await this.orNoContent(this.changeRequests.get(space, app.changeRequest));
      answer.changeRequest = this.changeRequestsPresenter.present(view);
      if (app.pagePath !== '') {
        const read = await this.orNoContent(
          this.reader.readRevision(space.id, view.changeRequest.revision),
        );
        const at = { changeRequestNumber: view.changeRequest.number };
        answer.page = await this.page(space, read, app.pagePath, at);
      }
      return answer;
    }
    if (app.revisionId !== undefined) {
      const read = await this.orNoContent(this.reader.readRevision(space.id, app.revisionId));
      if (app.pagePath !== '') {
        answer.page = await this.page(space, read, app.pagePath, { revisionId: app.revisionId });
      }
      return answer;
    }
    if (app.pagePath !== '') {
      const read = await this.reader.readRevision(space.id, space.entity.revisionId);
      answer.page = await this.page(space, read, app.pagePath, {});
    }
    return answer;
  }

  /** A published site's URL: the space it shows there, and the page at its path. */
  private async publishedContent(userId: string, url: URL): Promise<ContentByUrlResponse> {
    const found = await this.orNoContent(this.published.resolve({ url: url.href }));
    if (!('space' in found)) throw noContent();
    const space = await this.seenSpace(userId, found.space);
    const answer: ContentByUrlResponse = {
      space: this.spaces.present(space.entity, space.role),
    };
    const pagePath = found.pathname.replace(/^\/+|\/+$/g, '');
    if (pagePath !== '') {
      const read = await this.reader.readRevision(space.id, space.entity.revisionId);
      answer.page = await this.page(space, read, pagePath, {});
    }
    return answer;
  }

  private async seenSpace(userId: string, spaceId: string): Promise<SpaceAccess> {
    const access = await this.spaceAccess.resolve(userId, spaceId);
    if (!access || access.entity.deletedAt) throw noContent();
    return access;
  }

  private page(
    space: SpaceAccess,
    read: ReadRevision,
    path: string,
    at: { revisionId?: string; changeRequestNumber?: number },
  ): Promise<NonNullable<ContentByUrlResponse['page']>> {
    return this.orNoContent(this.content.pageByPath(read, path, contentView(space, at)));
  }

  /** `promise`, or 404 for the URL when what it names is not found. */
  private async orNoContent<T>(promise: Promise<T>): Promise<T> {
    try {
      return await promise;
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found') throw noContent();
      throw error;
    }
  }
}
