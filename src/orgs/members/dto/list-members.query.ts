import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { PageQueryDto } from '../../../platform/pagination/page-query.dto';
import { ROLES, type Role } from '../../../platform/policy/roles';
import { MaxChars } from '../../../platform/validation/chars';

export const LIST_ORDERS = ['asc', 'desc'] as const;
export type ListOrder = (typeof LIST_ORDERS)[number];

export const MEMBER_SORTS = ['joinedAt', 'lastSeenAt'] as const;
export type MemberSort = (typeof MEMBER_SORTS)[number];

/** A Role, or `guest` for the members without one. */
export const MEMBER_ROLE_FILTERS = [...ROLES, 'guest'] as const;
export type MemberRoleFilter = Role | 'guest';

export const MEMBER_SEARCH_MAX_LENGTH = 512;

/** GitBook's `listMembersInOrganizationById` query. */
export class ListMembersQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: LIST_ORDERS, default: 'desc', description: 'Order of the list.' })
  @IsOptional()
  @IsIn(LIST_ORDERS)
  order?: ListOrder;

  @ApiPropertyOptional({
    enum: MEMBER_ROLE_FILTERS,
    description: 'Only members with this role; `guest` for members without a role.',
  })
  @IsOptional()
  @IsIn(MEMBER_ROLE_FILTERS)
  role?: MemberRoleFilter;

  @ApiPropertyOptional({
    maxLength: MEMBER_SEARCH_MAX_LENGTH,
    description: 'Case-insensitive text to find in the display name or the email.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(MEMBER_SEARCH_MAX_LENGTH)
  search?: string;

  @ApiPropertyOptional({
    enum: MEMBER_SORTS,
    default: 'joinedAt',
    description: 'Sort key. `lastSeenAt` lists only members seen at least once.',
  })
  @IsOptional()
  @IsIn(MEMBER_SORTS)
  sort?: MemberSort;
}

/** GitBook's `listSpacesForOrganizationMember` query. */
export class ListMemberSpacesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: LIST_ORDERS, default: 'desc', description: 'Order of the list.' })
  @IsOptional()
  @IsIn(LIST_ORDERS)
  order?: ListOrder;
}
