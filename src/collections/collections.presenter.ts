import { Injectable } from '@nestjs/common';
import type { Role } from '../platform/policy/roles';
import { UrlBuilder } from '../platform/urls/url-builder';
import { collectionPermissions } from './collection-permissions';
import { CollectionResponse } from './dto/collection.response';
import { Collection } from './entities/collection.entity';

@Injectable()
export class CollectionsPresenter {
  constructor(private readonly urls: UrlBuilder) {}

  /** The collection as seen by a caller whose effective role on it is `role`. */
  present(collection: Collection, role: Role | null): CollectionResponse {
    return {
      object: 'collection',
      id: collection.id,
      title: collection.title,
      ...(collection.description !== null ? { description: collection.description } : {}),
      organization: collection.organizationId,
      ...(collection.parentId !== null ? { parent: collection.parentId } : {}),
      defaultLevel: collection.defaultLevel,
      urls: {
        location: this.urls.api('collections', collection.id),
        app: this.urls.app('o', collection.organizationId, 'c', collection.id),
      },
      permissions: collectionPermissions(role),
    };
  }
}
