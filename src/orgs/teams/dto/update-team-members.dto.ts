import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, ValidateBy, ValidationOptions } from 'class-validator';
import { TEAM_ROLES, TeamRole } from '../entities/team-member.entity';
import { MAX_USERS_PER_REQUEST } from './team.dto';
import { Chars } from '../../../platform/validation/chars';
import { PresentNotNull } from '../../../platform/validation/present-not-null';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{ "<user id or email>": { "role": "owner" | "member" }, ... }`, nothing else. */
function IsTeamMemberships(options?: ValidationOptions) {
  return ValidateBy(
    {
      name: 'isTeamMemberships',
      validator: {
        validate: (value: unknown) =>
          isPlainObject(value) &&
          Object.keys(value).length <= MAX_USERS_PER_REQUEST &&
          Object.entries(value).every(
            ([user, membership]) =>
              user.length >= 1 &&
              user.length <= 320 &&
              isPlainObject(membership) &&
              Object.keys(membership).length === 1 &&
              (TEAM_ROLES as readonly unknown[]).includes(membership.role),
          ),
        defaultMessage: () =>
          `memberships must map at most ${MAX_USERS_PER_REQUEST} users (ids or emails) to {"role": "owner" | "member"}`,
      },
    },
    options,
  );
}

/**
 * Body of `updateMembersInOrganizationTeam` (GitBook's `UpdateMembersInOrganizationTeam`).
 * Users are user ids or emails of organization members. A user both added and removed is
 * removed.
 */
export class UpdateTeamMembersDto {
  @ApiPropertyOptional({
    type: [String],
    description: 'Users to add with the role `member` (an existing team member keeps its role).',
    maxItems: MAX_USERS_PER_REQUEST,
  })
  @PresentNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_USERS_PER_REQUEST)
  @IsString({ each: true })
  @Chars(1, 320, { each: true })
  add?: string[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: {
      type: 'object',
      properties: { role: { type: 'string', enum: [...TEAM_ROLES] } },
      required: ['role'],
    },
    description: 'Users to add or update with the given team role.',
    example: { userId: { role: 'owner' } },
  })
  @PresentNotNull()
  @IsTeamMemberships()
  memberships?: Record<string, { role: TeamRole }>;

  @ApiPropertyOptional({
    type: [String],
    description: 'Users to remove from the team; users not in it are ignored.',
    maxItems: MAX_USERS_PER_REQUEST,
  })
  @PresentNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_USERS_PER_REQUEST)
  @IsString({ each: true })
  @Chars(1, 320, { each: true })
  remove?: string[];
}
