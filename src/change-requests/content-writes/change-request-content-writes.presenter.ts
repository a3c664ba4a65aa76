import { Injectable } from '@nestjs/common';
import type { FileObject } from '../../content-engine/reads/content-reader';
import { ContentPresenter } from '../../spaces/content/content.presenter';
import { UrlBuilder } from '../../platform/urls/url-builder';
import { ChangeRequestsPresenter } from '../change-requests.presenter';
import type { ContentWriteResult } from './change-request-content-writes.service';
import type {
  ChangeRequestContentUpdateResponse,
  PageChangeResponse,
} from './dto/change-request-content-update.response';

/** The `compat=false` answer of `updateChangeRequestContent`. */
@Injectable()
export class ChangeRequestContentWritesPresenter {
  constructor(
    private readonly changeRequests: ChangeRequestsPresenter,
    private readonly content: ContentPresenter,
    private readonly urls: UrlBuilder,
  ) {}

  present(result: ContentWriteResult): ChangeRequestContentUpdateResponse {
    const cr = result.changeRequest.changeRequest;
    const page = (id: string) => ({
      object: 'page' as const,
      id,
      urls: {
        location: this.urls.api(
          'spaces',
          cr.spaceId,
          'change-requests',
          cr.id,
          'content',
          'page',
          id,
        ),
      },
    });
    const changes = result.pages.map((touched): PageChangeResponse => {
      switch (touched.outcome) {
        case 'created':
          return {
            object: 'created_page',
            ...(touched.ref !== undefined ? { ref: touched.ref } : {}),
            page: page(touched.id),
          };
        case 'updated':
          return { object: 'updated_page', page: page(touched.id) };
        case 'deleted':
          return { object: 'deleted_page', page: touched.id };
      }
    });
    const view = {
      organizationId: cr.organizationId,
      spaceId: cr.spaceId,
      revisionId: result.revisionId,
      metadata: true,
    };
    return {
      changeRequest: this.changeRequests.present(result.changeRequest),
      changes,
      ...(result.insertedFiles.length > 0
        ? {
            insertedFiles: result.insertedFiles.map((file) =>
              this.content.file(file as unknown as FileObject, view),
            ),
          }
        : {}),
    };
  }
}
