import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, ValidateIf } from 'class-validator';
import { ROLES, type Role } from '../../../platform/policy/roles';

/** GitBook's `updateMemberInOrganizationById` body. */
export class UpdateMemberDto {
  @ApiPropertyOptional({
    enum: ROLES,
    nullable: true,
    description: 'The new role; null makes the member a guest. Absent: unchanged.',
  })
  // Not @IsOptional(): it would let null through unchecked, and null is a value here (guest).
  @ValidateIf((body: UpdateMemberDto) => body.role !== undefined)
  @IsIn([...ROLES, null], {
    message: `role must be one of ${ROLES.join(', ')}, or null for a guest`,
  })
  role?: Role | null;
}
