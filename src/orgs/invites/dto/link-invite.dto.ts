import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, ValidateIf } from 'class-validator';
import { ROLES, type Role } from '../../../platform/policy/roles';

const ROLE_OR_GUEST = [...ROLES, null];
const roleMessage = (field: string) => ({
  message: `${field} must be one of ${ROLES.join(', ')} or null (guest)`,
});

/**
 * GitBook's `CreateOrganizationInvite`: `{role}` for the organization, or `{level, space}` /
 * `{level, collection}` for one space or collection.
 */
export class CreateOrganizationInviteDto {
  @ApiPropertyOptional({
    enum: ROLES,
    nullable: true,
    description: 'Organization invites (required): role of who joins with it; null: guest.',
  })
  @ValidateIf(
    (o: CreateOrganizationInviteDto) => o.space === undefined && o.collection === undefined,
  )
  @IsIn(ROLE_OR_GUEST, roleMessage('role'))
  role?: Role | null;

  @ApiPropertyOptional({
    enum: ROLES,
    nullable: true,
    description: 'Space and collection invites (required): level in the space or collection.',
  })
  @ValidateIf(
    (o: CreateOrganizationInviteDto) => o.space !== undefined || o.collection !== undefined,
  )
  @IsIn(ROLE_OR_GUEST, roleMessage('level'))
  level?: Role | null;

  @ApiPropertyOptional({ description: 'Space invites: the space.' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  space?: string;

  @ApiPropertyOptional({ description: 'Collection invites: the collection.' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  collection?: string;
}

/** GitBook's `updateOrganizationInviteById` body: `{role}`, or `{level}` for content invites. */
export class UpdateOrganizationInviteDto {
  @ApiPropertyOptional({ enum: ROLES, nullable: true, description: 'New role; null: guest.' })
  @ValidateIf((o: UpdateOrganizationInviteDto) => o.level === undefined)
  @IsIn(ROLE_OR_GUEST, roleMessage('role'))
  role?: Role | null;

  @ApiPropertyOptional({
    enum: ROLES,
    nullable: true,
    description: 'Space and collection invites: the new level.',
  })
  @ValidateIf((o: UpdateOrganizationInviteDto) => o.level !== undefined)
  @IsIn(ROLE_OR_GUEST, roleMessage('level'))
  level?: Role | null;
}

class LinkInviteUrls {
  @ApiProperty({ format: 'uri', description: 'The API URL of the invite.' })
  location!: string;

  @ApiProperty({
    format: 'uri',
    description: 'The link to share: opening it in the app joins with the invite.',
  })
  app!: string;
}

/** GitBook's `InviteLinkToOrganization`, plus `urls` (a Bindery extension). */
export class LinkInviteResponse {
  @ApiProperty({ enum: ['invite'] }) object!: 'invite';
  @ApiProperty({ description: 'Its id, the secret of the link.' }) id!: string;
  @ApiProperty({ enum: ROLES, nullable: true, description: 'null: joins as a guest.' })
  role!: Role | null;
  @ApiProperty({ description: 'The caller already has everything the invite would give.' })
  redundant!: boolean;
  @ApiProperty({
    type: LinkInviteUrls,
    description: 'Bindery extension (GitBook sends no URL).',
  })
  urls!: LinkInviteUrls;
}
