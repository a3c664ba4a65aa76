import { notFound } from '../platform/errors/domain-error';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { ResolvedAccess } from '../platform/policy/access';
import { accessFromRows } from '../platform/policy/content-access/effective-role';
import { AccessResolver, PolicyService } from '../platform/policy/policy.service';
import { Space } from './entities/space.entity';
import { SpacesRepository } from './spaces.repository';

declare module '../platform/policy/access' {
  interface ResourceTypes {
    /** A space that is not in the trash. */
    space: true;
    /** A space, in the trash or not: reading it and restoring it. */
    spaceIncludingDeleted: true;
  }
}

/** A space and the caller's effective role on it. */
export type SpaceAccess = ResolvedAccess<Space> & { entity: Space };

/**
 * A user's access to a space: organization members with a role see every space of the
 * organization, with the highest of their role, the default level and their grants; guests
 * only the spaces granted to them (or a team), directly or on a collection above. Non-members
 * get null (404). Registered twice: `space` leaves out the trash, `spaceIncludingDeleted` not.
 */
@Injectable()
export class SpaceAccessResolver implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly spaces: SpacesRepository,
    private readonly policy: PolicyService,
  ) {}

  onModuleInit(): void {
    const live: AccessResolver = {
      resolve: async (userId, spaceId) => {
        const access = await this.resolve(userId, spaceId);
        return access && access.entity.deletedAt === null ? access : null;
      },
    };
    this.policy.register('space', live);
    this.policy.register(
      'spaceIncludingDeleted',
      { resolve: (userId, spaceId) => this.resolve(userId, spaceId) },
      'space',
    );
  }

  async resolve(userId: string, spaceId: string): Promise<SpaceAccess | null> {
    return (await this.resolveMany(userId, [spaceId])).get(spaceId) ?? null;
  }

  /** The caller's access to each of the spaces it may see (trash included), by id, in one query. */
  async resolveMany(
    userId: string,
    spaceIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, SpaceAccess>> {
    if (spaceIds.length === 0) return new Map();
    const rows = await this.spaces.accessRows(spaceIds, userId, manager);
    const accesses = accessFromRows(this.dataSource, Space, 'space', rows);
    for (const access of accesses.values()) access.spaceId = access.id;
    return accesses;
  }

  /** The caller's access to a space just written, read on the writer's transaction; 404 if none. */
  async reload(manager: EntityManager, userId: string, spaceId: string): Promise<SpaceAccess> {
    const access = (await this.resolveMany(userId, [spaceId], manager)).get(spaceId);
    if (!access) throw notFound('Space');
    return access;
  }
}
