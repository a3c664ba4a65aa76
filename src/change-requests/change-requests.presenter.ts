import { Injectable } from '@nestjs/common';
import { UrlBuilder } from '../platform/urls/url-builder';
import { UsersPresenter } from '../users/users.presenter';
import { ChangeRequestResponse, ChangeRequestSummaryResponse } from './dto/change-request.response';
import type { ChangeRequestView } from './change-request-view';
import { changeRequestAppUrl } from './change-request-urls';

@Injectable()
export class ChangeRequestsPresenter {
  constructor(
    private readonly urls: UrlBuilder,
    private readonly users: UsersPresenter,
  ) {}

  present({ changeRequest: cr, primaryRevision }: ChangeRequestView): ChangeRequestResponse {
    return {
      object: 'change-request',
      id: cr.id,
      number: cr.number,
      status: cr.status,
      subject: cr.subject,
      ...(cr.description !== null ? { description: cr.description } : {}),
      ...(cr.creator ? { createdBy: this.users.user(cr.creator) } : {}),
      createdAt: cr.createdAt.toISOString(),
      updatedAt: cr.updatedAt.toISOString(),
      space: cr.spaceId,
      revision: cr.revision,
      revisionInitial: cr.revisionInitial,
      ...(cr.revisionMergedAncestor !== null
        ? { revisionMergedAncestor: cr.revisionMergedAncestor }
        : {}),
      ...(cr.revisionMerged !== null ? { revisionMerged: cr.revisionMerged } : {}),
      ...(cr.conversationsIssuesClusterId
        ? { conversationsIssuesCluster: cr.conversationsIssuesClusterId }
        : {}),
      comments: cr.comments,
      // A merged change request is part of the primary content: never behind it.
      outdated:
        cr.status !== 'merged' &&
        primaryRevision !== (cr.revisionMergedAncestor ?? cr.revisionInitial),
      urls: {
        app: changeRequestAppUrl(this.urls, cr),
        location: this.urls.api('spaces', cr.spaceId, 'change-requests', cr.id),
      },
    };
  }

  /**
   * What a reference to the change request embeds (a link location's `versionContext`): the
   * fields GitBook requires, its creator with only theirs; no description.
   */
  summary(view: ChangeRequestView): ChangeRequestSummaryResponse {
    const full = this.present(view);
    return {
      object: full.object,
      id: full.id,
      number: full.number,
      status: full.status,
      subject: full.subject,
      ...(full.createdBy
        ? {
            createdBy: {
              object: full.createdBy.object,
              id: full.createdBy.id,
              displayName: full.createdBy.displayName,
              urls: full.createdBy.urls,
            },
          }
        : {}),
      createdAt: full.createdAt,
      updatedAt: full.updatedAt,
      space: full.space,
      revision: full.revision,
      revisionInitial: full.revisionInitial,
      comments: full.comments,
      outdated: full.outdated,
      urls: full.urls,
    };
  }
}
