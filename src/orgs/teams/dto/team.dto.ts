import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  ValidateIf,
} from 'class-validator';
import { PageQueryDto } from '../../../platform/pagination/page-query.dto';
import { TEAM_ROLES, TeamRole } from '../entities/team-member.entity';
import { Chars, MaxChars } from '../../../platform/validation/chars';
import { PresentNotNull } from '../../../platform/validation/present-not-null';

/** Largest number of users one request may name (team creation, bulk membership update). */
export const MAX_USERS_PER_REQUEST = 1000;

/** Body of `createOrganizationTeam`. */
export class CreateTeamDto {
  @ApiProperty({ minLength: 1, maxLength: 64, example: 'Writers' })
  @IsString()
  @Chars(1, 64)
  @Matches(/\S/, { message: 'title must not be blank' })
  title!: string;

  @ApiPropertyOptional({
    type: [String],
    description:
      'User ids of organization members to add, with the team role `member`. The creator is not added unless listed.',
    maxItems: MAX_USERS_PER_REQUEST,
  })
  @PresentNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_USERS_PER_REQUEST)
  @IsString({ each: true })
  @Chars(1, 64, { each: true })
  members?: string[];
}

/** Body of `updateTeamInOrganizationById`. */
export class UpdateTeamDto extends PickType(CreateTeamDto, ['title'] as const) {}

/** Query of `listTeamsInOrganizationById`. */
export class ListTeamsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    description: 'A member (user id): only the teams this member can manage.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  owner?: string;

  @ApiPropertyOptional({
    description: 'Only teams whose title contains this text, case-insensitively.',
    maxLength: 64,
  })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  title?: string;
}

/** Query of `listTeamsForOrganizationMember`. */
export class ListMemberTeamsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    description: 'Only teams whose title contains this text, case-insensitively.',
    maxLength: 64,
  })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  title?: string;
}

/** Body of `addMemberToOrganizationTeamById` (optional). */
export class AddTeamMemberDto {
  @ApiPropertyOptional({
    enum: TEAM_ROLES,
    description: 'Default: `member` for a new team member; unchanged for an existing one.',
  })
  // Absent, not null: GitBook's TeamMemberRole is not nullable.
  @ValidateIf((_, value) => value !== undefined)
  @IsIn(TEAM_ROLES)
  role?: TeamRole;
}
