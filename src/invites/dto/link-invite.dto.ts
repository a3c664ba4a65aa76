import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, ValidateIf } from 'class-validator';
import { CollectionResponse } from '../../collections/dto/collection.response';
import { ROLES, type Role } from '../../platform/policy/roles';
import { SpaceResponse } from '../../spaces/dto/space.response';
import { Chars } from '../../platform/validation/chars';

const ROLE_OR_GUEST = [...ROLES, null];
const roleMessage = (field: string) => ({
  message: `${field} must be one of ${ROLES.join(', ')} or null (guest)`,
});
const levelMessage = {
  message: `level must be one of ${ROLES.join(', ')} (a space or collection invite gives a role there)`,
};

/** The level of a space or collection invite created without one: the least that opens it. */
export const DEFAULT_CONTENT_INVITE_LEVEL: Role = 'read';

/**
 * GitBook's `CreateOrganizationInvite`: `{role}` for the organization, or `{level, space}` /
 * `{level, collection}` for one space or collection of it.
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
    default: DEFAULT_CONTENT_INVITE_LEVEL,
    description:
      'Space and collection invites: the role joining gives on the space or collection ' +
      `(default ${DEFAULT_CONTENT_INVITE_LEVEL}). null, which would give nothing there, is refused.`,
  })
  @ValidateIf((o: CreateOrganizationInviteDto) => o.level !== undefined)
  @IsIn(ROLES, levelMessage)
  level?: Role;

  @ApiPropertyOptional({ description: 'Space invites: a live space of the organization.' })
  @IsOptional()
  @IsString()
  @Chars(1, 64)
  space?: string;

  @ApiPropertyOptional({ description: 'Collection invites: a collection of the organization.' })
  @IsOptional()
  @IsString()
  @Chars(1, 64)
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
    description: 'Space and collection invites: the new level (null is refused).',
  })
  @ValidateIf((o: UpdateOrganizationInviteDto) => o.level !== undefined)
  @IsIn(ROLES, levelMessage)
  level?: Role;
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

/**
 * GitBook's `OrganizationInviteLink`, plus `urls` (a Bindery extension): an organization
 * invite (`InviteLinkToOrganization`: `role`) or a space or collection invite
 * (`InviteLinkToSpace` / `InviteLinkToCollection`: `level` and the space or collection).
 */
export class LinkInviteResponse {
  @ApiProperty({ enum: ['invite'] }) object!: 'invite';
  @ApiProperty({ description: 'Its id, the secret of the link.' }) id!: string;
  @ApiPropertyOptional({
    enum: ROLES,
    nullable: true,
    description:
      'Organization invites: the role joining gives; null: joins as a guest. In listings also ' +
      'on space and collection invites (null: who is not a member yet joins as a guest), as ' +
      "GitBook's listing shape requires it.",
  })
  role?: Role | null;
  @ApiPropertyOptional({
    enum: ROLES,
    description: 'Space and collection invites: the role joining gives there.',
  })
  level?: Role;
  @ApiPropertyOptional({ type: SpaceResponse, description: 'Space invites: the space.' })
  space?: SpaceResponse;
  @ApiPropertyOptional({
    type: CollectionResponse,
    description: 'Collection invites: the collection.',
  })
  collection?: CollectionResponse;
  @ApiProperty({ description: 'The caller already has everything the invite would give.' })
  redundant!: boolean;
  @ApiProperty({
    type: LinkInviteUrls,
    description: 'Bindery extension (GitBook sends no URL).',
  })
  urls!: LinkInviteUrls;
}
