import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { Member } from '../../orgs/entities/member.entity';
import { Team } from '../../orgs/teams/entities/team.entity';
import { TeamsService } from '../../orgs/teams/teams.service';
import { Clock } from '../../platform/clock/clock';
import { invalidInput, notFound } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import { paginate } from '../../platform/pagination/keyset';
import { Page } from '../../platform/pagination/page';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import type { Role } from '../../platform/policy/roles';
import { User } from '../../users/entities/user.entity';
import type { CollectionAccess } from '../collections.service';
import { ContentGrant } from '../entities/content-grant.entity';
import { InviteToCollectionDto } from './dto/collection-permission.dto';

type Grantee = { kind: 'user'; id: string } | { kind: 'team'; id: string };

/** A grant on the collection with the user or team it names. */
export interface UserGrant {
  grant: ContentGrant;
  user: User;
}
export interface TeamGrant {
  grant: ContentGrant;
  team: Team;
}

const unique = (ids: string[] | undefined) => [...new Set(ids ?? [])];

/**
 * The grants (`content_grants`) on one collection: roles given to members of its organization
 * (guests included: a grant is how a guest sees a collection) and to its teams. A grant reaches
 * the collection's sub-collections (CollectionAccessResolver walks the ancestors).
 */
@Injectable()
export class CollectionPermissionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly teams: TeamsService,
  ) {}

  /** Sets `role` for every user and team named (upsert); `role: null` removes their grants. */
  async invite(access: CollectionAccess, input: InviteToCollectionDto): Promise<void> {
    const userIds = unique(input.users);
    const teamIds = unique(input.teams);
    if (userIds.length === 0 && teamIds.length === 0) {
      throw invalidInput('users, teams: give at least one user or team.');
    }
    await this.dataSource.transaction(async (manager) => {
      await this.teams.requireMembers(manager, access.organizationId, userIds, 'users', {
        byEmail: false,
      });
      await this.checkTeams(manager, access.organizationId, teamIds, 'teams');
      const grantees: Grantee[] = [
        ...userIds.map((id) => ({ kind: 'user' as const, id })),
        ...teamIds.map((id) => ({ kind: 'team' as const, id })),
      ];
      for (const grantee of grantees) await this.set(manager, access, grantee, input.role);
    });
  }

  /** Sets (creating it if absent) or, with null, removes a member's grant. 404: not a member. */
  async setUser(access: CollectionAccess, userId: string, role: Role | null): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const member = await manager.existsBy(Member, {
        organizationId: access.organizationId,
        userId,
      });
      if (!member) throw notFound('User');
      await this.set(manager, access, { kind: 'user', id: userId }, role);
    });
  }

  /** Sets (creating it if absent) or, with null, removes a team's grant. 404: no such team. */
  async setTeam(access: CollectionAccess, teamId: string, role: Role | null): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const team = await manager.existsBy(Team, {
        organizationId: access.organizationId,
        id: teamId,
      });
      if (!team) throw notFound('Team');
      await this.set(manager, access, { kind: 'team', id: teamId }, role);
    });
  }

  /** Removes the grant; nothing to do (still 204) when there is none. */
  async removeUser(access: CollectionAccess, userId: string): Promise<void> {
    await this.remove(this.dataSource.manager, access, { kind: 'user', id: userId });
  }

  async removeTeam(access: CollectionAccess, teamId: string): Promise<void> {
    await this.remove(this.dataSource.manager, access, { kind: 'team', id: teamId });
  }

  /** The users granted a role on this collection (not inherited ones), oldest grant first. */
  async listUsers(access: CollectionAccess, request: PageQueryDto): Promise<Page<UserGrant>> {
    const page = await this.listGrants(access, 'user_id', request);
    const users = await this.dataSource.getRepository(User).findBy({
      id: In(page.items.map((grant) => grant.userId as string)),
    });
    const byId = new Map(users.map((user) => [user.id, user]));
    return {
      ...page,
      items: page.items.map((grant) => ({ grant, user: byId.get(grant.userId as string)! })),
    };
  }

  /** The teams granted a role on this collection (not inherited ones), oldest grant first. */
  async listTeams(access: CollectionAccess, request: PageQueryDto): Promise<Page<TeamGrant>> {
    const page = await this.listGrants(access, 'team_id', request);
    const teams = await this.dataSource.getRepository(Team).findBy({
      organizationId: access.organizationId,
      id: In(page.items.map((grant) => grant.teamId as string)),
    });
    const byId = new Map(teams.map((team) => [team.id, team]));
    return {
      ...page,
      items: page.items.map((grant) => ({ grant, team: byId.get(grant.teamId as string)! })),
    };
  }

  /** The caller's role in the collection's organization (null: a guest). */
  async organizationRole(access: CollectionAccess, userId: string): Promise<Role | null> {
    const member = await this.dataSource
      .getRepository(Member)
      .findOneBy({ organizationId: access.organizationId, userId });
    return member?.role ?? null;
  }

  private listGrants(
    access: CollectionAccess,
    column: 'user_id' | 'team_id',
    request: PageQueryDto,
  ): Promise<Page<ContentGrant>> {
    const query = this.dataSource
      .getRepository(ContentGrant)
      .createQueryBuilder('g')
      .where(`g.resource_type = 'collection' AND g.resource_id = :collectionId`, {
        collectionId: access.id,
      })
      .andWhere('g.organization_id = :organizationId', { organizationId: access.organizationId })
      .andWhere(`g.${column} IS NOT NULL`);
    return paginate(query, request, {
      keys: [
        { sql: 'g.created_at', of: (grant) => grant.createdAt },
        { sql: 'g.id', of: (grant) => grant.id },
      ],
      direction: 'ASC',
    });
  }

  private async set(
    manager: EntityManager,
    access: CollectionAccess,
    grantee: Grantee,
    role: Role | null,
  ): Promise<void> {
    if (role === null) {
      await this.remove(manager, access, grantee);
      return;
    }
    const column = grantee.kind === 'user' ? 'user_id' : 'team_id';
    await manager.query(
      `INSERT INTO content_grants
         (id, organization_id, resource_type, resource_id, user_id, team_id, role, created_at)
       VALUES ($1, $2, 'collection', $3, $4, $5, $6, $7)
       ON CONFLICT (resource_type, resource_id, ${column}) WHERE ${column} IS NOT NULL
       DO UPDATE SET role = EXCLUDED.role`,
      [
        newId(),
        access.organizationId,
        access.id,
        grantee.kind === 'user' ? grantee.id : null,
        grantee.kind === 'team' ? grantee.id : null,
        role,
        this.clock.now(),
      ],
    );
  }

  private async remove(
    manager: EntityManager,
    access: CollectionAccess,
    grantee: Grantee,
  ): Promise<void> {
    await manager.delete(ContentGrant, {
      organizationId: access.organizationId,
      resourceType: 'collection',
      resourceId: access.id,
      ...(grantee.kind === 'user' ? { userId: grantee.id } : { teamId: grantee.id }),
    });
  }

  /** 400 naming the ids that are not teams of the organization. */
  private async checkTeams(
    manager: EntityManager,
    organizationId: string,
    ids: string[],
    field: string,
  ): Promise<void> {
    if (ids.length === 0) return;
    const found = await manager.findBy(Team, { organizationId, id: In(ids) });
    const known = new Set(found.map((team) => team.id));
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length > 0) {
      throw invalidInput(`${field}: no team ${missing.join(', ')} in this organization.`);
    }
  }
}
