import { ApiProperty } from '@nestjs/swagger';
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
