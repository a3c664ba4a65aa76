import { ApiProperty, type ApiPropertyOptions, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsObject,
  IsString,
  IsUrl,
  Matches,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { PresentNotNull } from '../../platform/validation/present-not-null';
import { Chars, charCount, MaxChars } from '../../platform/validation/chars';
import { OPENAPI_VISIBILITIES, type OpenAPIVisibility } from '../entities/openapi-spec.entity';

/** The seed's slug (and 0.202.0's): alphanumeric groups joined by single hyphens, 1..100. */
export const OPENAPI_SPEC_SLUG_PATTERN = /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/;
export const OPENAPI_SPEC_SLUG_MAX = 100;
export const OPENAPI_SOURCE_URL_MAX = 2048;

const SLUG_RULE =
  'must be letters and digits in groups joined by single hyphens (e.g. petstore-v2)';

/**
 * GitBook's `OpenAPISpecSource`: exactly one of `url` (http(s), fetched again on a schedule) and
 * `text` (JSON or YAML). Documented by SOURCE_SCHEMA, as the two variants it is.
 */
export class OpenAPISpecSourceDto {
  @ValidateIf(
    (source: OpenAPISpecSourceDto) => source.url !== undefined || source.text === undefined,
  )
  @IsString()
  @MaxChars(OPENAPI_SOURCE_URL_MAX)
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'url must be an http(s) URL' },
  )
  url?: string;

  @ValidateIf((source: OpenAPISpecSourceDto) => source.text !== undefined)
  @IsString()
  @Chars(1, Number.MAX_SAFE_INTEGER)
  text?: string;
}

/** `source` holds an object with `url` or `text`, one of them. */
function IsOneSource(): PropertyDecorator {
  return ValidateBy({
    name: 'isOneSource',
    validator: {
      validate: (value: unknown) => {
        if (typeof value !== 'object' || value === null) return false;
        // Own fields of the DTO instance exist (undefined) whether or not they were sent.
        const source = value as Record<string, unknown>;
        return (source.url !== undefined) !== (source.text !== undefined);
      },
      defaultMessage: () => 'source must be an object with either url or text',
    },
  });
}

const SOURCE_SCHEMA: ApiPropertyOptions = {
  // Not the DTO class: its schema would join the variants (allOf), where it is one of them.
  type: Object,
  description: 'Where the specification comes from: `{url}` or `{text}`.',
  oneOf: [
    {
      type: 'object',
      description:
        'Create a specification from an URL (http or https), fetched again on a schedule',
      properties: {
        url: { type: 'string', format: 'uri', maxLength: OPENAPI_SOURCE_URL_MAX },
      },
      required: ['url'],
    },
    {
      type: 'object',
      description: 'Create a specification from a text string',
      properties: {
        text: {
          type: 'string',
          minLength: 1,
          description: 'OpenAPI specification as text (JSON or YAML)',
        },
      },
      required: ['text'],
    },
  ],
};

/** `createOpenAPISpec`. */
export class CreateOpenAPISpecDto {
  @ApiProperty({
    minLength: 1,
    maxLength: OPENAPI_SPEC_SLUG_MAX,
    pattern: OPENAPI_SPEC_SLUG_PATTERN.source,
    description: 'Unique in the organization; names the specification in paths.',
  })
  @IsString()
  @Chars(1, OPENAPI_SPEC_SLUG_MAX)
  @Matches(OPENAPI_SPEC_SLUG_PATTERN, { message: `slug ${SLUG_RULE}` })
  slug!: string;

  @ApiProperty(SOURCE_SCHEMA)
  @IsOneSource()
  @IsObject()
  @ValidateNested()
  @Type(() => OpenAPISpecSourceDto)
  source!: OpenAPISpecSourceDto;

  @ApiPropertyOptional({
    enum: OPENAPI_VISIBILITIES,
    default: 'private',
    description: 'Bindery extension (0.146.0 takes it only on PATCH).',
  })
  @PresentNotNull()
  @IsIn(OPENAPI_VISIBILITIES)
  visibility?: OpenAPIVisibility;
}

/** `createOrUpdateOpenAPISpecBySlug`: the slug is the path's. */
export class PutOpenAPISpecDto {
  @ApiProperty(SOURCE_SCHEMA)
  @IsOneSource()
  @IsObject()
  @ValidateNested()
  @Type(() => OpenAPISpecSourceDto)
  source!: OpenAPISpecSourceDto;

  @ApiPropertyOptional({
    enum: OPENAPI_VISIBILITIES,
    description:
      'Bindery extension: absent keeps the visibility (`private` for a new specification).',
  })
  @PresentNotNull()
  @IsIn(OPENAPI_VISIBILITIES)
  visibility?: OpenAPIVisibility;
}

/** `updateOpenAPISpecBySlug`. */
export class UpdateOpenAPISpecDto {
  @ApiProperty({ enum: OPENAPI_VISIBILITIES })
  @IsIn(OPENAPI_VISIBILITIES)
  visibility!: OpenAPIVisibility;
}

/** The path's slug, checked before a PUT creates a specification with it. */
export function slugProblem(slug: string): string | null {
  if (charCount(slug) > OPENAPI_SPEC_SLUG_MAX) {
    return `specSlug must be shorter than or equal to ${OPENAPI_SPEC_SLUG_MAX} characters`;
  }
  return OPENAPI_SPEC_SLUG_PATTERN.test(slug) ? null : `specSlug ${SLUG_RULE}`;
}
