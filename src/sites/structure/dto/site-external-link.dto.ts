import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsOptional,
  IsString,
  IsUrl,
  MaxLength,
  ValidateBy,
  ValidateIf,
} from 'class-validator';
import {
  IsCondition,
  MAX_CONDITION_LENGTH,
} from '../../../platform/conditions/condition.validator';
import { charCount, Chars, MaxChars } from '../../../platform/validation/chars';
import { PresentNotNull } from '../../../platform/validation/present-not-null';
import { TRANSLATION_LANGUAGES } from '../../../spaces/languages';
import { trim } from './site-section.dto';

const present = (_: object, value: unknown) => value !== undefined && value !== null;
const URL_OPTIONS = { require_tld: false, require_protocol: true, protocols: ['http', 'https'] };
const LANGUAGES: ReadonlySet<string> = new Set(TRANSLATION_LANGUAGES);

/**
 * GitBook's `LocalizedString128` / `LocalizedString256`: an object whose keys are translation
 * languages and whose values are strings of at most `max` characters.
 */
function IsLocalizedString(max: number): PropertyDecorator {
  return ValidateBy({
    name: 'isLocalizedString',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        Object.entries(value).every(
          ([language, text]) =>
            LANGUAGES.has(language) && typeof text === 'string' && charCount(text) <= max,
        ),
      defaultMessage: () =>
        `$property must be an object of strings of at most ${max} characters by language ` +
        `(${TRANSLATION_LANGUAGES.slice(0, 4).join(', ')}, ...)`,
    },
  });
}

const localized = (max: number) => ({
  type: 'object' as const,
  additionalProperties: { type: 'string', maxLength: max },
  description: 'By language, for languages other than the default.',
  example: { fr: 'Statut' },
});

/** What adding and updating a link take alike: each optional, `null` clearing it. */
class SiteExternalLinkDetails {
  @ApiPropertyOptional({ type: String, maxLength: 256, nullable: true })
  @ValidateIf(present)
  @IsString()
  @MaxChars(256)
  description?: string | null;

  @ApiPropertyOptional({ ...localized(256), nullable: true })
  @ValidateIf(present)
  @IsLocalizedString(256)
  localizedDescription?: Record<string, string> | null;

  @ApiPropertyOptional({ type: String, maxLength: 50, nullable: true, example: 'gear' })
  @ValidateIf(present)
  @IsString()
  @Chars(1, 50)
  icon?: string | null;

  @ApiPropertyOptional({
    type: String,
    maxLength: MAX_CONDITION_LENGTH,
    nullable: true,
    description: 'Expression over the visitor claims deciding whether a visitor sees the link.',
  })
  @ValidateIf(present)
  @IsCondition()
  condition?: string | null;
}

export class AddSiteExternalLinkDto extends SiteExternalLinkDetails {
  @ApiProperty({ minLength: 2, maxLength: 128, example: 'Status' })
  @Transform(trim)
  @IsString()
  @Chars(2, 128)
  title!: string;

  @ApiPropertyOptional(localized(128))
  @PresentNotNull()
  @IsLocalizedString(128)
  localizedTitle?: Record<string, string>;

  @ApiProperty({
    format: 'uri',
    maxLength: 2048,
    description: 'Absolute HTTP or HTTPS destination URL.',
    example: 'https://status.example.com',
  })
  @IsString()
  @MaxLength(2048)
  @IsUrl(URL_OPTIONS, { message: 'url must be an absolute HTTP or HTTPS URL' })
  url!: string;

  @ApiPropertyOptional({
    description: 'ID of the section group to create the link in; the site root when absent.',
  })
  @IsOptional()
  @IsString()
  @Chars(1, 32)
  parent?: string;

  @ApiPropertyOptional({
    description: 'Whether the link is a draft, absent from the published site (default false).',
  })
  @PresentNotNull()
  @IsBoolean()
  draft?: boolean;
}

export class UpdateSiteExternalLinkDto extends SiteExternalLinkDetails {
  @ApiPropertyOptional({ minLength: 2, maxLength: 128 })
  @PresentNotNull()
  @Transform(trim)
  @IsString()
  @Chars(2, 128)
  title?: string;

  @ApiPropertyOptional({ ...localized(128), nullable: true })
  @ValidateIf(present)
  @IsLocalizedString(128)
  localizedTitle?: Record<string, string> | null;

  @ApiPropertyOptional({
    format: 'uri',
    maxLength: 2048,
    description: 'Absolute HTTP or HTTPS destination URL.',
  })
  @PresentNotNull()
  @IsString()
  @MaxLength(2048)
  @IsUrl(URL_OPTIONS, { message: 'url must be an absolute HTTP or HTTPS URL' })
  url?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      'ID of the section group to move the link into (at its end); null moves it to the site root.',
  })
  @ValidateIf(present)
  @IsString()
  @Chars(1, 32)
  parent?: string | null;

  @ApiPropertyOptional({
    description: 'Whether the link is a draft, absent from the published site.',
  })
  @PresentNotNull()
  @IsBoolean()
  draft?: boolean;
}
