import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class LocationUrls {
  @ApiProperty({ format: 'uri', description: 'API URL of the resource.' })
  location!: string;
}

/** GitBook's `User`. */
export class UserResponse {
  @ApiProperty({ enum: ['user'] })
  object!: 'user';

  @ApiProperty()
  id!: string;

  @ApiProperty()
  displayName!: string;

  @ApiPropertyOptional({
    description:
      'Sent to the person, to the admins of the organization the request is about and to the ' +
      'instance administrator only.',
  })
  email?: string;

  @ApiPropertyOptional({ format: 'uri' })
  photoURL?: string;

  @ApiProperty({ type: LocationUrls })
  urls!: LocationUrls;
}

/** A user as the instance administrator sees it. */
export class AdminUserResponse extends UserResponse {
  @ApiProperty({ description: 'A disabled user cannot authenticate.' })
  disabled!: boolean;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
}

export class CreatedUserResponse {
  @ApiProperty({ type: AdminUserResponse })
  user!: AdminUserResponse;

  @ApiProperty({ description: 'An API token of the new user. Shown only once.' })
  token!: string;
}

/** What a token is limited to (`access` always; the others only when set). */
export class TokenScopesResponse {
  @ApiProperty({ enum: ['read-only', 'read-write'] }) access!: 'read-only' | 'read-write';
  @ApiPropertyOptional({ description: 'The one organization it reaches.' }) organization?: string;
  @ApiPropertyOptional({ type: [String], description: 'The only spaces it reaches in it.' })
  spaces?: string[];
  @ApiPropertyOptional({ type: [String], description: 'The only sites it reaches in it.' })
  sites?: string[];
}

/** An API token as listed: never its secret. */
export class ApiTokenResponse {
  @ApiProperty({ enum: ['api-token'] }) object!: 'api-token';
  @ApiProperty() id!: string;
  @ApiPropertyOptional({ description: 'The label given at creation.' }) label?: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'When it stops working; absent: never.',
  })
  expiresAt?: string;
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'When a request last used it, to the minute; absent: never used.',
  })
  lastUsedAt?: string;
  @ApiProperty({ type: TokenScopesResponse }) scopes!: TokenScopesResponse;
}

export class CreatedTokenResponse extends ApiTokenResponse {
  @ApiProperty({ description: 'The new API token. Shown only once.' })
  token!: string;
}
