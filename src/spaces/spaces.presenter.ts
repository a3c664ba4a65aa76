import { Injectable } from '@nestjs/common';
import type { Role } from '../platform/policy/roles';
import { UrlBuilder } from '../platform/urls/url-builder';
import { SpaceResponse, SpaceSummaryResponse } from './dto/space.response';
import { Space } from './entities/space.entity';
import { spacePermissions } from './space-permissions';

@Injectable()
export class SpacesPresenter {
  constructor(private readonly urls: UrlBuilder) {}

  /** The space as seen by a caller whose effective role on it is `role`. */
  present(space: Space, role: Role | null): SpaceResponse {
    return {
      object: 'space',
      id: space.id,
      title: space.title,
      // Required by GitBook's shape; empty when the space has no emoji (or has an icon).
      emoji: space.emoji ?? '',
      visibility: space.visibility,
      createdAt: space.createdAt.toISOString(),
      updatedAt: space.updatedAt.toISOString(),
      ...(space.deletedAt ? { deletedAt: space.deletedAt.toISOString() } : {}),
      editMode: space.editMode,
      mergeRules: space.mergeRules,
      urls: {
        location: this.urls.api('spaces', space.id),
        app: this.urls.app('o', space.organizationId, 's', space.id),
        ...(space.icon !== null ? { icon: space.icon } : {}),
      },
      organization: space.organizationId,
      ...(space.parentId !== null ? { parent: space.parentId } : {}),
      ...(space.language !== null ? { language: space.language } : {}),
      ...(space.gitSync !== null ? { gitSync: space.gitSync } : {}),
      ...(space.visitorAuth !== null ? { visitorAuth: space.visitorAuth } : {}),
      revision: space.revisionId,
      defaultLevel: space.defaultLevel,
      comments: space.comments,
      changeRequests: space.changeRequests,
      changeRequestsOpen: space.changeRequestsOpen,
      changeRequestsDraft: space.changeRequestsDraft,
      permissions: spacePermissions(role),
    };
  }

  /** What a reference to the space embeds: the fields GitBook requires, no more. */
  summary(space: Space, role: Role | null): SpaceSummaryResponse {
    const full = this.present(space, role);
    return {
      object: full.object,
      id: full.id,
      title: full.title,
      emoji: full.emoji,
      organization: full.organization,
      visibility: full.visibility,
      revision: full.revision,
      createdAt: full.createdAt,
      updatedAt: full.updatedAt,
      comments: full.comments,
      changeRequests: full.changeRequests,
      changeRequestsOpen: full.changeRequestsOpen,
      changeRequestsDraft: full.changeRequestsDraft,
      mergeRules: full.mergeRules,
      urls: { location: full.urls.location, app: full.urls.app },
      defaultLevel: full.defaultLevel,
      permissions: full.permissions,
    };
  }
}
