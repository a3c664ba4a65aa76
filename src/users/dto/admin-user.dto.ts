import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDateString,
  IsEmail,
  IsIn,
  IsOptional,
  IsString,
  IsUrl,
  ValidateNested,
} from 'class-validator';
import { Chars, MaxChars } from '../../platform/validation/chars';
import { PresentNotNull } from '../../platform/validation/present-not-null';

export const TOKEN_ACCESS = ['read-only', 'read-write'] as const;
/** The most spaces (or sites) one token may name. */
export const MAX_SCOPED_RESOURCES = 100;

export class CreateUserDto {
  @ApiProperty({ example: 'ada@example.com' })
  @IsEmail()
  @MaxChars(320)
  email!: string;

  @ApiProperty({ example: 'Ada Lovelace', minLength: 1, maxLength: 255 })
  @IsString()
  @Chars(1, 255)
  displayName!: string;

  @ApiPropertyOptional({ format: 'uri' })
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true })
  @MaxChars(2048)
  photoURL?: string;
}

/** What the administrator changes of a user: at least one field. */
export class UpdateUserDto {
  @ApiPropertyOptional({
    description: 'A disabled user cannot authenticate; its tokens stop working at once.',
  })
  @PresentNotNull()
  @IsBoolean()
  disabled?: boolean;

  @ApiPropertyOptional({ example: 'Ada King', minLength: 1, maxLength: 255 })
  @PresentNotNull()
  @IsString()
  @Chars(1, 255)
  displayName?: string;

  @ApiPropertyOptional({
    example: 'ada@example.org',
    description:
      'Stored lower-cased; 409 when another user has it. The user signs in (SAML) with it from now on.',
  })
  @PresentNotNull()
  @IsEmail()
  @MaxChars(320)
  email?: string;
}

/** What a token is limited to; every field optional (absent: no limit of that kind). */
export class TokenScopesDto {
  @ApiPropertyOptional({
    enum: TOKEN_ACCESS,
    default: 'read-write',
    description:
      '`read-only`: only reads (GET, and the few POSTs that only read: searches); ' +
      '`read-write`: whatever its user may do.',
  })
  @PresentNotNull()
  @IsIn(TOKEN_ACCESS)
  access?: (typeof TOKEN_ACCESS)[number];

  @ApiPropertyOptional({
    description:
      "The one organization the token reaches (its id): the user's other organizations, and " +
      'routes that are not about one organization (listing, creating organizations; tokens), ' +
      'are out of its reach.',
  })
  @PresentNotNull()
  @IsString()
  @Chars(1, 64)
  organization?: string;

  @ApiPropertyOptional({
    type: [String],
    minItems: 1,
    maxItems: MAX_SCOPED_RESOURCES,
    description:
      'Within `organization` (required with it): the only spaces the token reaches, with what ' +
      'they hold (content, change requests, comments, Git sync).',
  })
  @PresentNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_SCOPED_RESOURCES)
  @IsString({ each: true })
  @Chars(1, 64, { each: true })
  spaces?: string[];

  @ApiPropertyOptional({
    type: [String],
    minItems: 1,
    maxItems: MAX_SCOPED_RESOURCES,
    description:
      'Within `organization` (required with it): the only sites the token reaches, with what ' +
      'they hold (sections, site spaces, share links, redirects, publishing).',
  })
  @PresentNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_SCOPED_RESOURCES)
  @IsString({ each: true })
  @Chars(1, 64, { each: true })
  sites?: string[];
}

export class CreateTokenDto {
  @ApiPropertyOptional({ description: 'A label to recognize the token by.', maxLength: 100 })
  @IsOptional()
  @IsString()
  @Chars(1, 100)
  label?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'When the token stops working (in the future); absent: never.',
  })
  @IsOptional()
  @IsDateString({ strict: true })
  expiresAt?: string;

  @ApiPropertyOptional({
    type: TokenScopesDto,
    description:
      'What the token is limited to. Absent: all its user may do. A scoped token never does ' +
      'more than its user may.',
  })
  @PresentNotNull()
  @ValidateNested()
  @Type(() => TokenScopesDto)
  scopes?: TokenScopesDto;
}

/** What users change of their own profile (GitBook's `updateUserById`): at least one field. */
export class UpdateUserProfileDto {
  @ApiPropertyOptional({ example: 'Ada Lovelace', minLength: 1, maxLength: 64 })
  @PresentNotNull()
  @IsString()
  @Chars(1, 64)
  displayName?: string;

  @ApiPropertyOptional({
    format: 'uri',
    maxLength: 2048,
    example: 'https://example.com/ada.png',
    description: 'An http(s) URL of the picture.',
  })
  @PresentNotNull()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true })
  @MaxChars(2048)
  photoURL?: string;
}
