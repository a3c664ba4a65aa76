import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TeamResponse } from '../../../orgs/teams/dto/team.response';
import { ROLES, type Role } from '../../../platform/policy/roles';
import { UserResponse } from '../../../users/dto/user.response';

/** GitBook's `UserContentPermission`. */
export class UserContentPermissionResponse {
  @ApiProperty({ enum: ROLES }) permission!: Role;
  @ApiProperty({ type: UserResponse }) user!: UserResponse;
}

/** An item of `listTeamPermissionsIn{Collection,Space}`: a team's role on the content. */
export class TeamContentPermissionResponse {
  @ApiProperty({ enum: ROLES }) permission!: Role;
  @ApiProperty({ type: TeamResponse }) team!: TeamResponse;
}

/** GitBook's `UserSitePermissionOrigin`: what decided a member's role on a site. */
export class UserSitePermissionOriginResponse {
  @ApiProperty({ enum: ['organization', 'site'] }) type!: 'organization' | 'site';
  @ApiPropertyOptional({ description: 'With `type: organization`: its id.' })
  organization?: string;
  @ApiPropertyOptional({ description: 'With `type: site`: its id.' }) site?: string;
  @ApiPropertyOptional({
    enum: ['member', 'team'],
    description: 'With `type: site`: a grant to the member itself, or to a team of its.',
  })
  reason?: 'member' | 'team';
  @ApiPropertyOptional({ description: 'With `reason: team`: the team granted.' }) team?: string;
}

/** GitBook's `UserSitePermission`: a member's effective role on a site, and where from. */
export class UserSitePermissionResponse extends UserContentPermissionResponse {
  @ApiProperty({ type: UserSitePermissionOriginResponse })
  origin!: UserSitePermissionOriginResponse;
  @ApiProperty({ description: 'Always false: disabled members reach nothing.' })
  disabled!: boolean;
  @ApiPropertyOptional({ format: 'date-time', description: 'When the member was last seen.' })
  lastSeenAt?: string;
}
