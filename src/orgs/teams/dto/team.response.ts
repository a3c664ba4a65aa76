import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ROLES } from '../../../platform/policy/roles';
import { UserResponse } from '../../../users/dto/user.response';
import { TEAM_ROLES } from '../entities/team-member.entity';

export class TeamPermissionsResponse {
  @ApiProperty({ description: 'The caller may rename the team and manage its members.' })
  admin!: boolean;

  @ApiProperty({ description: 'The caller may see the team and list its members.' })
  view!: boolean;
}

/** GitBook's `OrganizationTeam`. */
export class TeamResponse {
  @ApiProperty({ enum: ['team'] }) object!: 'team';
  @ApiProperty() id!: string;
  @ApiProperty({ minLength: 1, maxLength: 64 }) title!: string;
  @ApiProperty({ type: 'integer', description: 'Number of members of the team.' })
  members!: number;
  @ApiProperty({ description: 'Number of spaces the team has access to.' }) spaces!: number;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: TeamPermissionsResponse }) permissions!: TeamPermissionsResponse;
}

/** GitBook's `TeamMember`: a user's role in one team. */
export class TeamMembershipResponse {
  @ApiProperty({ enum: TEAM_ROLES, description: '`owner` can manage the team and its members.' })
  role!: (typeof TEAM_ROLES)[number];
}

/** An item of `listTeamsForOrganizationMember`. */
export class MemberTeamResponse {
  @ApiProperty({ type: TeamResponse }) team!: TeamResponse;
  @ApiProperty({ type: TeamMembershipResponse }) member!: TeamMembershipResponse;
}

/** GitBook's `OrganizationMember`, as nested in a team's member listing. */
export class TeamMemberOrganizationMemberResponse {
  @ApiProperty({ enum: ['member'] }) object!: 'member';
  @ApiProperty({ description: 'The user id.' }) id!: string;
  @ApiProperty({ enum: ROLES, nullable: true, description: 'null: a guest.' })
  role!: string | null;
  @ApiProperty({ type: UserResponse }) user!: UserResponse;
  @ApiProperty() disabled!: boolean;
  @ApiProperty({ format: 'date-time' }) joinedAt!: string;
  @ApiPropertyOptional({ format: 'date-time' }) lastSeenAt?: string;
  @ApiProperty() sso!: boolean;
  @ApiProperty() spaces!: number;
  @ApiProperty({ description: 'Number of teams of the organization the member is in.' })
  teams!: number;
}

class TeamMemberPermissionsResponse {
  @ApiProperty() view!: boolean;
}

/** GitBook's `OrganizationTeamMember`: an item of `listTeamMembersInOrganizationById`. */
export class TeamMemberResponse {
  @ApiProperty({ type: TeamMemberOrganizationMemberResponse })
  organization!: TeamMemberOrganizationMemberResponse;
  @ApiProperty({ type: TeamMembershipResponse }) team!: TeamMembershipResponse;
  @ApiProperty({ type: TeamMemberPermissionsResponse })
  permissions!: TeamMemberPermissionsResponse;
}
