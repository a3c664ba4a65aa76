import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ROLES } from '../../../platform/policy/roles';
import { UserResponse } from '../../../users/dto/user.response';

/** GitBook's `OrganizationMember`. */
export class MemberResponse {
  @ApiProperty({ enum: ['member'] })
  object!: 'member';

  @ApiProperty({ description: 'The user id.' })
  id!: string;

  @ApiProperty({ enum: ROLES, nullable: true, description: 'null: a guest.' })
  role!: string | null;

  @ApiProperty({ type: UserResponse })
  user!: UserResponse;

  @ApiProperty({ description: 'A disabled membership gives no access to the organization.' })
  disabled!: boolean;

  @ApiProperty({ format: 'date-time' })
  joinedAt!: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Absent until the first ping.' })
  lastSeenAt?: string;

  @ApiProperty({ description: 'The user can sign in with SSO.' })
  sso!: boolean;

  @ApiProperty({ description: 'Spaces the member has access to.' })
  spaces!: number;

  @ApiProperty({ description: 'Teams the member belongs to.' })
  teams!: number;
}

/** Answer of `updateOrganizationMemberLastSeenAt`. */
export class PingResponse {
  @ApiPropertyOptional({
    description:
      'A JWT (HS256, one hour) with the claims of this member (sub, organization, role, email), ' +
      "for visitor-authenticated sites. GitBook's spec names this field gitbookVisitorClaims.",
  })
  docsVisitorClaims?: string;
}
