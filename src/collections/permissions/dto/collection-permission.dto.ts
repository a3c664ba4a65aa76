import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { ROLES, type Role } from '../../../platform/policy/roles';

/** Most users or teams one invitation may name. */
export const MAX_INVITEES = 100;

const roleMessage = `role must be one of ${ROLES.join(', ')}, or null to remove access`;

/** GitBook's `InviteUsersAndTeams`: `role` and at least one of `users` and `teams`. */
export class InviteToCollectionDto {
  @ApiProperty({
    enum: ROLES,
    nullable: true,
    description: 'Role to set; null removes the grants of the users and teams.',
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
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_INVITEES)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  users?: string[];

  @ApiPropertyOptional({
    type: [String],
    minItems: 1,
    maxItems: MAX_INVITEES,
    description: 'Ids of teams of the organization.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_INVITEES)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  teams?: string[];
}

/** Body of `updateUserPermissionInCollection` and `updateTeamPermissionInCollection`. */
export class UpdateCollectionPermissionDto {
  @ApiProperty({
    enum: ROLES,
    nullable: true,
    description: 'The role to set (the grant is created if absent); null removes the grant.',
  })
  @ValidateIf(() => true)
  @IsIn([...ROLES, null], { message: roleMessage })
  role!: Role | null;
}
