import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  ValidateIf,
} from 'class-validator';
import {
  ListMembersQueryDto,
  MEMBER_ROLE_FILTERS,
  type MemberRoleFilter,
} from '../../../orgs/members/dto/list-members.query';
import { PageQueryDto } from '../../../platform/pagination/page-query.dto';
import { ROLES, type Role } from '../../../platform/policy/roles';
import { MaxChars } from '../../../platform/validation/chars';
import { PresentNotNull } from '../../../platform/validation/present-not-null';

/** GitBook's `memberSort` on the site aggregate. */
export const SITE_AGGREGATE_SORTS = ['joinedAt', 'lastSeenAt', 'name'] as const;

/** Most users or teams one invitation may name. */
export const MAX_INVITEES = 100;

const roleMessage = `role must be one of ${ROLES.join(', ')}, or null to remove access`;

/** GitBook's `InviteUsersAndTeams`: `role` and at least one of `users` and `teams`. */
export class InviteUsersAndTeamsDto {
  @ApiProperty({
    enum: ROLES,
    nullable: true,
    description: 'Role to set (a grant is created where absent); null removes the grants.',
  })
  // Not @IsOptional(): null is a value here, and the field is required.
  @ValidateIf(() => true)
  @IsIn([...ROLES, null], { message: roleMessage })
  role!: Role | null;

  @ApiPropertyOptional({
    type: [String],
    minItems: 1,
    maxItems: MAX_INVITEES,
    description: 'Ids of members (guests too) of the organization.',
  })
  @PresentNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_INVITEES)
  @IsString({ each: true })
  @MaxChars(64, { each: true })
  users?: string[];

  @ApiPropertyOptional({
    type: [String],
    minItems: 1,
    maxItems: MAX_INVITEES,
    description: 'Ids of teams of the organization.',
  })
  @PresentNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_INVITEES)
  @IsString({ each: true })
  @MaxChars(64, { each: true })
  teams?: string[];
}

/** Body of the `update{User,Team}PermissionIn{Collection,Space}` operations. */
export class UpdateContentPermissionDto extends PickType(InviteUsersAndTeamsDto, [
  'role',
] as const) {}

/** Query of `listPermissionsAggregateInCollection` and `listPermissionsAggregateInSpace`. */
export class ListPermissionsAggregateQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    enum: ROLES,
    description: 'Only the users whose effective role on the content is this one.',
  })
  @IsOptional()
  @IsIn(ROLES, { message: `role must be one of ${ROLES.join(', ')}` })
  role?: Role;
}

/**
 * Query of `listPermissionsAggregateInSite`: GitBook's member filters and order, as the member
 * list's (`role` is the effective role on the site; `guest`: members without an organization
 * role, who reach the site through grants), and `name` among the sort keys.
 */
export class ListSitePermissionsAggregateQueryDto extends PickType(ListMembersQueryDto, [
  'page',
  'limit',
  'order',
  'role',
  'search',
] as const) {
  // Validated as the member list's `role`; described as what it filters here.
  @ApiPropertyOptional({
    enum: MEMBER_ROLE_FILTERS,
    description:
      'Only the users whose effective role on the site is this one; `guest` for members ' +
      'without an organization role (who reach the site through grants).',
  })
  override role?: MemberRoleFilter;

  @ApiPropertyOptional({
    enum: SITE_AGGREGATE_SORTS,
    default: 'joinedAt',
    description: 'Sort key. `lastSeenAt` lists only members seen at least once.',
  })
  @IsOptional()
  @IsIn(SITE_AGGREGATE_SORTS)
  sort?: (typeof SITE_AGGREGATE_SORTS)[number];

  @ApiPropertyOptional({ description: 'Only the members of this team.', maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  team?: string;
}
