import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { ResolvedAccess } from '../platform/policy/access';
import { accessFromRows } from '../platform/policy/content-access/effective-role';
import { AccessResolver, PolicyService } from '../platform/policy/policy.service';
import { CollectionsRepository } from './collections.repository';
import { Collection } from './entities/collection.entity';

declare module '../platform/policy/access' {
  interface ResourceTypes {
    collection: true;
  }
}

/**
 * A user's access to a collection: organization members with a role see every collection of
 * the organization; guests only those granted to them (or a team of theirs), directly or on an
 * ancestor. Non-members, and guests without a grant, get null (404).
 */
@Injectable()
export class CollectionAccessResolver implements AccessResolver, OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly collections: CollectionsRepository,
    private readonly policy: PolicyService,
  ) {}

  onModuleInit(): void {
    this.policy.register('collection', this);
  }

  async resolve(userId: string, collectionId: string): Promise<ResolvedAccess<Collection> | null> {
    return (await this.resolveMany(userId, [collectionId])).get(collectionId) ?? null;
  }

  /** The caller's access to each of the collections it may see, by id, in one query. */
  async resolveMany(
    userId: string,
    collectionIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, ResolvedAccess<Collection>>> {
    if (collectionIds.length === 0) return new Map();
    const rows = await this.collections.accessRows(collectionIds, userId, manager);
    return accessFromRows(this.dataSource, Collection, 'collection', rows);
  }
}
