import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { Chars } from '../../../platform/validation/chars';

/** The signature of an invitation link, as its email gave it. */
export class InvitationLinkQueryDto {
  @ApiPropertyOptional({ description: 'Unix time (seconds) at which the link stops working.' })
  @IsOptional()
  @IsString()
  expires?: string;

  @ApiPropertyOptional({ description: "The link's signature." })
  @IsOptional()
  @IsString()
  signature?: string;
}

export class AcceptInvitationDto {
  @ApiPropertyOptional({
    description: 'The name the new user goes by; absent: the address before its `@`.',
    minLength: 1,
    maxLength: 255,
  })
  @IsOptional()
  @IsString()
  @Chars(1, 255)
  displayName?: string;
}

class AcceptedInvitationUser {
  @ApiProperty()
  id!: string;

  @ApiProperty({ format: 'email' })
  email!: string;

  @ApiProperty()
  displayName!: string;
}

export class AcceptedInvitationResponse {
  @ApiProperty({ enum: ['accepted-invitation'] })
  object!: 'accepted-invitation';

  @ApiProperty({ description: 'The organization joined.' })
  organizationId!: string;

  @ApiProperty({ type: AcceptedInvitationUser })
  user!: AcceptedInvitationUser;

  @ApiPropertyOptional({
    description:
      "A new user's first API token, shown this once. Absent when the address was already a " +
      "user's: they go on with their own tokens.",
  })
  token?: string;
}
