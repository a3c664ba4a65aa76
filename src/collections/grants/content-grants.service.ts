import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { Member } from '../../orgs/entities/member.entity';
import { Team } from '../../orgs/teams/entities/team.entity';
import type { TeamViewer } from '../../orgs/teams/team-viewer';
import { TeamsService } from '../../orgs/teams/teams.service';
import { Clock } from '../../platform/clock/clock';
import { invalidInput, notFound } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import { Page } from '../../platform/pagination/page';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import type { Role } from '../../platform/policy/roles';
import { User } from '../../users/entities/user.entity';
import { ContentGrant } from '../entities/content-grant.entity';
import { InviteUsersAndTeamsDto } from './dto/content-grant.dto';
import { ROLE_RANKS, roleOfRank } from '../../platform/policy/content-access/role-rank';
import {
  type ContentResource,
  ContentGrantsRepository,
  type MemberRank,
} from './content-grants.repository';

export type { ContentResource } from './content-grants.repository';

type Grantee = { kind: 'user'; id: string } | { kind: 'team'; id: string };

/** A user's role on the content: granted to it, or (in the aggregate) its effective role. */
export interface UserPermission {
  role: Role;
  user: User;
}
export interface TeamPermission {
  role: Role;
  team: Team;
}
/**
 * What decided a member's effective role on the content: its organization role (or, on a
 * collection or space, the default level), or a grant to it (`user`) or to its team `teamId`.
 */
export type PermissionOrigin =
  { kind: 'organization' } | { kind: 'user' } | { kind: 'team'; teamId: string };

/** An item of the aggregate: a member, its effective role, and what decided it. */
export interface MemberPermission extends UserPermission {
  member: Member;
  origin: PermissionOrigin;
}

/** What the aggregate keeps (`role`: an effective role, or `guest`) and its order. */
export interface AggregateFilters {
  role?: Role | 'guest';
  search?: string;
  team?: string;
  sort?: 'joinedAt' | 'lastSeenAt' | 'name';
  order?: 'asc' | 'desc';
}

/** Team grants with who looks at them, for the teams' `permissions`. */
export interface TeamPermissionPage extends Page<TeamPermission> {
  viewer: TeamViewer;
}

/**
 * What decided the rank: the member's own grant when it reaches it, else a team's grant when
 * there is one, else the organization (its role, or on content the default level).
 */
function originOf(item: MemberRank): PermissionOrigin {
  const { member, rank } = item;
  if (member.role !== null && ROLE_RANKS[member.role] >= rank) return { kind: 'organization' };
  if (item.userGrantRank !== null && item.userGrantRank >= rank) return { kind: 'user' };
  if (item.grantTeamId !== null) return { kind: 'team', teamId: item.grantTeamId };
  return { kind: 'organization' };
}

const unique = (ids: string[] | undefined) => [...new Set(ids ?? [])];

/**
 * The grants (`content_grants`) on one collection, space or site: roles given to members of its
 * organization (guests included: a grant is how a guest sees content) and to its teams. A grant
 * on a collection reaches everything inside it (the access resolvers walk the ancestors); a
 * grant on a site raises the member's role on the site (SiteAccessPolicy).
 */
@Injectable()
export class ContentGrantsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly teams: TeamsService,
    private readonly grants: ContentGrantsRepository,
  ) {}

  /** Sets `role` for every user and team named (upsert); `role: null` removes their grants. */
  async invite(resource: ContentResource, input: InviteUsersAndTeamsDto): Promise<void> {
    const userIds = unique(input.users);
    const teamIds = unique(input.teams);
    if (userIds.length === 0 && teamIds.length === 0) {
      throw invalidInput('users, teams: give at least one user or team.');
    }
    await this.dataSource.transaction(async (manager) => {
      await this.teams.requireMembers(manager, resource.organizationId, userIds, 'users', {
        byEmail: false,
      });
      await this.checkTeams(manager, resource.organizationId, teamIds, 'teams');
      const grantees: Grantee[] = [
        ...userIds.map((id) => ({ kind: 'user' as const, id })),
        ...teamIds.map((id) => ({ kind: 'team' as const, id })),
      ];
      for (const grantee of grantees) await this.set(manager, resource, grantee, input.role);
    });
  }

  /** Sets (creating it if absent) or, with null, removes a member's grant. 404: not a member. */
  async setUser(resource: ContentResource, userId: string, role: Role | null): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const member = await manager.existsBy(Member, {
        organizationId: resource.organizationId,
        userId,
      });
      if (!member) throw notFound('User');
      await this.set(manager, resource, { kind: 'user', id: userId }, role);
    });
  }

  /** Sets (creating it if absent) or, with null, removes a team's grant. 404: no such team. */
  async setTeam(resource: ContentResource, teamId: string, role: Role | null): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const team = await manager.existsBy(Team, {
        organizationId: resource.organizationId,
        id: teamId,
      });
      if (!team) throw notFound('Team');
      await this.set(manager, resource, { kind: 'team', id: teamId }, role);
    });
  }

  /** Removes the grant; nothing to do (still 204) when there is none. */
  async removeUser(resource: ContentResource, userId: string): Promise<void> {
    await this.remove(this.dataSource.manager, resource, { kind: 'user', id: userId });
  }

  async removeTeam(resource: ContentResource, teamId: string): Promise<void> {
    await this.remove(this.dataSource.manager, resource, { kind: 'team', id: teamId });
  }

  /** The users granted a role on this content (not inherited ones), oldest grant first. */
  async listUsers(resource: ContentResource, request: PageQueryDto): Promise<Page<UserPermission>> {
    const page = await this.listGrants(resource, 'user_id', request);
    const users = await this.dataSource.getRepository(User).findBy({
      id: In(page.items.map((grant) => grant.userId as string)),
    });
    const byId = new Map(users.map((user) => [user.id, user]));
    return {
      ...page,
      items: page.items.map((grant) => ({
        role: grant.role,
        user: byId.get(grant.userId as string)!,
      })),
    };
  }

  /**
   * The teams granted a role on this content (not inherited ones), oldest grant first, with
   * the caller (`viewerId`) as a TeamViewer.
   */
  async listTeams(
    resource: ContentResource,
    viewerId: string,
    request: PageQueryDto,
  ): Promise<TeamPermissionPage> {
    const [page, viewer] = await Promise.all([
      this.listGrants(resource, 'team_id', request),
      this.dataSource
        .getRepository(Member)
        .findOneBy({ organizationId: resource.organizationId, userId: viewerId }),
    ]);
    const teams = await this.dataSource.getRepository(Team).findBy({
      organizationId: resource.organizationId,
      id: In(page.items.map((grant) => grant.teamId as string)),
    });
    const byId = new Map(teams.map((team) => [team.id, team]));
    return {
      ...page,
      items: page.items.map((grant) => ({
        role: grant.role,
        team: byId.get(grant.teamId as string)!,
      })),
      viewer: { userId: viewerId, role: viewer?.role ?? null },
    };
  }

  /**
   * Every member who can reach the content, with its effective role there and what decided it
   * (`filters.role`: only those with that role, or only guests), oldest member first unless
   * `filters` order them otherwise. One statement reads the page with the roles
   * (memberAccessCtes), one more counts.
   */
  async listAggregate(
    resource: ContentResource,
    filters: AggregateFilters,
    request: PageQueryDto,
  ): Promise<Page<MemberPermission>> {
    const { role, team, ...rest } = filters;
    const page = await this.grants.pageMembersWithAccess(
      resource,
      {
        ...rest,
        rank: role && role !== 'guest' ? ROLE_RANKS[role] : undefined,
        guests: role === 'guest',
        teamId: team,
      },
      request,
    );
    return {
      ...page,
      items: page.items.map((item) => ({
        role: roleOfRank(item.rank),
        user: item.member.user!,
        member: item.member,
        origin: originOf(item),
      })),
    };
  }

  private listGrants(
    resource: ContentResource,
    column: 'user_id' | 'team_id',
    request: PageQueryDto,
  ): Promise<Page<ContentGrant>> {
    return this.grants.pageOnContent(resource, column, request);
  }

  private async set(
    manager: EntityManager,
    resource: ContentResource,
    grantee: Grantee,
    role: Role | null,
  ): Promise<void> {
    if (role === null) {
      await this.remove(manager, resource, grantee);
      return;
    }
    await this.grants.upsert(
      {
        id: newId(),
        organizationId: resource.organizationId,
        resourceType: resource.resourceType,
        resourceId: resource.id,
        userId: grantee.kind === 'user' ? grantee.id : null,
        teamId: grantee.kind === 'team' ? grantee.id : null,
        role,
        createdAt: this.clock.now(),
      },
      manager,
    );
  }

  private async remove(
    manager: EntityManager,
    resource: ContentResource,
    grantee: Grantee,
  ): Promise<void> {
    await manager.delete(ContentGrant, {
      organizationId: resource.organizationId,
      resourceType: resource.resourceType,
      resourceId: resource.id,
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
