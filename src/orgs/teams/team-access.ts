import { Injectable, OnModuleInit } from '@nestjs/common';
import { forbidden, notFound } from '../../platform/errors/domain-error';
import type { ResolvedAccess } from '../../platform/policy/access';
import { type AccessContext, PolicyService } from '../../platform/policy/policy.service';
import { teamPermissions, type TeamPermissions } from './team-permissions';
import { type TeamView, TeamsService } from './teams.service';

declare module '../../platform/policy/access' {
  interface ResourceTypes {
    /** A team of the route's organization. */
    team: true;
  }
  interface ResourceActions {
    team: keyof TeamPermissions;
  }
}

/** A team with its counts and the caller's role in it, and the caller's organization role. */
export type TeamAccess = ResolvedAccess<TeamView> & { entity: TeamView };

const REFUSALS: Record<keyof TeamPermissions, string> = {
  view: 'Guests can see only the teams they are in.',
  admin: "Only organization admins and the team's owners can manage this team.",
};

/**
 * The access policy of teams: a member of the organization finds its teams (404 for no such
 * team); its actions are those of `teamPermissions`, from the caller's organization role and
 * its role in the team: `view` (members from `read` up, or the team's own members), `admin`
 * (organization admins and the team's owners).
 */
@Injectable()
export class TeamAccessPolicy implements OnModuleInit {
  constructor(
    private readonly policy: PolicyService,
    private readonly teams: TeamsService,
  ) {}

  onModuleInit(): void {
    const action = (need: keyof TeamPermissions) => (access: ResolvedAccess) => {
      const { viewerRole } = (access as TeamAccess).entity;
      return teamPermissions(access.role, viewerRole)[need] ? null : forbidden(REFUSALS[need]);
    };
    this.policy.register('team', {
      resolver: { resolve: (userId, id, context) => this.resolve(userId, id, context!) },
      actions: { view: action('view'), admin: action('admin') },
    });
  }

  private async resolve(
    userId: string,
    teamId: string,
    context: AccessContext,
  ): Promise<TeamAccess | null> {
    const organization = await context.parent('organization', context.params.organizationId);
    if (!organization) throw notFound('Organization');
    const view = await this.teams.find(organization.id, teamId, userId);
    if (!view) return null;
    return { ...organization, resource: 'team', id: teamId, entity: view };
  }
}
