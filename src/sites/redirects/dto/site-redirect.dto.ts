import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { ID_PATTERN } from '../../../platform/ids/ids';
import { PageQueryDto } from '../../../platform/pagination/page-query.dto';
import { Chars, MaxChars } from '../../../platform/validation/chars';
import { DiscriminatedType } from '../../../platform/validation/discriminated-type';
import { PresentNotNull } from '../../../platform/validation/present-not-null';
import type { SiteRedirectDestination } from '../entities/site-redirect.entity';
import { isSourcePath, MAX_SOURCE_LENGTH, SOURCE_PATH_PATTERN } from '../redirect-source';
import { SITE_REDIRECT_ORDERS, type SiteRedirectOrder } from '../site-redirects.repository';

/** GitBook's `SiteRedirectInputDestinationPath`: a page of a space the site publishes, by path. */
export type SiteRedirectPathDestination = { kind: 'path'; spaceId: string; path: string };
/** GitBook's `SiteRedirectInputDestination`. */
export type SiteRedirectInputDestination = SiteRedirectDestination | SiteRedirectPathDestination;

const MAX_URL_LENGTH = 2048;
const MAX_PAGE_PATH_LENGTH = 2048;

// ---------------------------------------------------------------------------------------------
// Destinations: documented as GitBook's schemas, checked by one validator (a oneOf by `kind`).

export class SiteRedirectDestinationSiteSectionSchema {
  @ApiProperty({ enum: ['site-section'] }) kind!: 'site-section';
  @ApiProperty({ description: 'The site section to redirect to (its default variant).' })
  siteSectionId!: string;
}

export class SiteRedirectDestinationSiteSpaceSchema {
  @ApiProperty({ enum: ['site-space'] }) kind!: 'site-space';
  @ApiProperty({ description: 'The site space to redirect to.' }) siteSpaceId!: string;
}

export class SiteRedirectDestinationPageSchema {
  @ApiProperty({ enum: ['site-page'] }) kind!: 'site-page';
  @ApiProperty({ description: 'The site space of the page.' }) siteSpaceId!: string;
  @ApiProperty({ description: 'The page, in the primary content of the site space.' })
  pageId!: string;
}

export class SiteRedirectDestinationExternalSchema {
  @ApiProperty({ enum: ['external'] }) kind!: 'external';
  @ApiProperty({ format: 'uri', maxLength: MAX_URL_LENGTH, description: 'An http(s) URL.' })
  url!: string;
}

export class SiteRedirectInputDestinationPathSchema {
  @ApiProperty({ enum: ['path'] }) kind!: 'path';
  @ApiProperty({ description: 'A space the site publishes.' }) spaceId!: string;
  @ApiProperty({
    description: 'Path of the page in the primary content of the space; stored as a `site-page`.',
  })
  path!: string;
}

export const DESTINATION_SCHEMAS = [
  SiteRedirectDestinationSiteSectionSchema,
  SiteRedirectDestinationSiteSpaceSchema,
  SiteRedirectDestinationPageSchema,
  SiteRedirectDestinationExternalSchema,
];

const destinationRefs = (classes: (new () => object)[]) =>
  classes.map((schema) => ({ $ref: getSchemaPath(schema) }));

const DESTINATION_PROPERTY = {
  oneOf: destinationRefs(DESTINATION_SCHEMAS),
  description: 'A section, a site space, a page of a site space, or an external URL.',
};

const INPUT_DESTINATION_PROPERTY = {
  oneOf: destinationRefs([...DESTINATION_SCHEMAS, SiteRedirectInputDestinationPathSchema]),
  description:
    'A section, a site space, a page of a site space (or, `kind: path`, the page at a path of ' +
    'a space the site publishes), or an external URL.',
};

/** The fields of each kind of destination: `id` ones (ids), `url` and `path`. */
const DESTINATION_FIELDS: Record<string, Record<string, 'id' | 'url' | 'path'>> = {
  'site-section': { siteSectionId: 'id' },
  'site-space': { siteSpaceId: 'id' },
  'site-page': { siteSpaceId: 'id', pageId: 'id' },
  external: { url: 'url' },
  path: { spaceId: 'id', path: 'path' },
};

function isHttpUrl(value: string): boolean {
  // Printable ASCII without spaces: a URL as it is sent, escaped where it must be.
  if (value.length > MAX_URL_LENGTH || !/^[\x21-\x7e]+$/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** What is wrong with a destination (`path` kinds allowed with `input`); null: nothing. */
export function destinationProblem(
  value: unknown,
  property: string,
  input: boolean,
): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `${property} must be an object`;
  }
  const destination = value as Record<string, unknown>;
  const kinds = Object.keys(DESTINATION_FIELDS).filter((kind) => input || kind !== 'path');
  const kind = destination.kind;
  if (typeof kind !== 'string' || !kinds.includes(kind)) {
    return `${property}.kind must be one of the following values: ${kinds.join(', ')}`;
  }
  const fields = DESTINATION_FIELDS[kind];
  for (const key of Object.keys(destination)) {
    if (key !== 'kind' && !(key in fields)) {
      return `property ${property}.${key} should not exist (kind ${kind})`;
    }
  }
  for (const [field, type] of Object.entries(fields)) {
    const fieldValue = destination[field];
    const name = `${property}.${field}`;
    if (typeof fieldValue !== 'string') return `${name} must be a string`;
    if (type === 'id' && !ID_PATTERN.test(fieldValue)) return `${name} must be an id`;
    if (type === 'url' && !isHttpUrl(fieldValue)) {
      return `${name} must be an escaped http(s) URL of at most ${MAX_URL_LENGTH} characters`;
    }
    if (type === 'path' && (fieldValue.length === 0 || fieldValue.length > MAX_PAGE_PATH_LENGTH)) {
      return `${name} must be a page path of 1 to ${MAX_PAGE_PATH_LENGTH} characters`;
    }
  }
  return null;
}

/** A destination; `nullable`: or null (a bulk item's delete). */
function IsDestination(options: { input: boolean; nullable?: boolean }): PropertyDecorator {
  const problem = (value: unknown, property: string) =>
    value === null && options.nullable ? null : destinationProblem(value, property, options.input);
  return ValidateBy({
    name: 'isSiteRedirectDestination',
    validator: {
      validate: (value, args) => problem(value, args?.property ?? 'destination') === null,
      defaultMessage: (args) =>
        problem(args?.value, args?.property ?? 'destination') ?? 'destination is invalid',
    },
  });
}

function IsSourcePath(): PropertyDecorator {
  return ValidateBy({
    name: 'isSiteRedirectSourcePath',
    validator: {
      validate: (value) => isSourcePath(value),
      defaultMessage: (args) =>
        `${args?.property} must be a path of at most ${MAX_SOURCE_LENGTH} characters: ` +
        '"/" and segments of letters, digits, "-", ".", "_", "~", "+" or %-escapes, ' +
        'optionally ending in "*" or "/*"',
    },
  });
}

const SOURCE_PROPERTY = {
  type: String,
  maxLength: MAX_SOURCE_LENGTH,
  pattern: SOURCE_PATH_PATTERN.source,
  description:
    'A path of the site, matched whatever its case and escapes. Ending in `/*`, it matches ' +
    'the paths below it; ending in `*`, the paths that start with it.',
};

const CAPTURE_WILDCARD_PROPERTY = {
  description: 'A wildcard appends what it matched to the destination URL (below it, for `/*`).',
};
const PERMANENT_PROPERTY = {
  description: 'Served as a permanent redirect (308) to public live traffic.',
};

// ---------------------------------------------------------------------------------------------
// Bodies and queries

/** `createSiteRedirect` body. */
@ApiExtraModels(...DESTINATION_SCHEMAS, SiteRedirectInputDestinationPathSchema)
export class CreateSiteRedirectDto {
  @ApiProperty(SOURCE_PROPERTY)
  @IsSourcePath()
  source!: string;

  @ApiPropertyOptional({ ...CAPTURE_WILDCARD_PROPERTY, default: false })
  @PresentNotNull()
  @IsBoolean()
  captureWildcard?: boolean;

  @ApiPropertyOptional({ description: 'A draft is not served.', default: false })
  @PresentNotNull()
  @IsBoolean()
  draft?: boolean;

  @ApiPropertyOptional({ ...PERMANENT_PROPERTY, default: false })
  @PresentNotNull()
  @IsBoolean()
  permanent?: boolean;

  @ApiProperty(INPUT_DESTINATION_PROPERTY)
  @IsDestination({ input: true })
  destination!: SiteRedirectInputDestination;
}

/** `updateSiteRedirectById` body: the fields given change. */
export class UpdateSiteRedirectDto {
  @ApiPropertyOptional(SOURCE_PROPERTY)
  @PresentNotNull()
  @IsSourcePath()
  source?: string;

  @ApiPropertyOptional(CAPTURE_WILDCARD_PROPERTY)
  @PresentNotNull()
  @IsBoolean()
  captureWildcard?: boolean;

  @ApiPropertyOptional({
    description: '`false` makes a draft live (replacing the live redirect of its source).',
  })
  @PresentNotNull()
  @IsBoolean()
  draft?: boolean;

  @ApiPropertyOptional(PERMANENT_PROPERTY)
  @PresentNotNull()
  @IsBoolean()
  permanent?: boolean;

  @ApiPropertyOptional(DESTINATION_PROPERTY)
  @PresentNotNull()
  @IsDestination({ input: false })
  destination?: SiteRedirectDestination;
}

export const BULK_INTENTS = ['live', 'draft', 'publish'] as const;
export const MAX_BULK_REDIRECTS = 500;

/** A bulk item that publishes the draft redirect of its source. */
export class PublishSiteRedirectItemDto {
  @ApiProperty(SOURCE_PROPERTY)
  @IsSourcePath()
  source!: string;

  @ApiProperty({
    enum: ['publish'],
    description: 'Publish the draft redirect of the source (replacing the live one).',
  })
  @IsIn(['publish'])
  intent!: 'publish';
}

/** A bulk item that creates, updates or (destination null) deletes a live or draft redirect. */
export class UpsertSiteRedirectItemDto {
  @ApiProperty(SOURCE_PROPERTY)
  @IsSourcePath()
  source!: string;

  @ApiPropertyOptional({
    enum: ['live', 'draft'],
    default: 'live',
    description: 'Whether the live or the draft redirect of the source is written.',
  })
  @IsOptional()
  @IsIn(['live', 'draft'], {
    message: 'intent must be one of the following values: ' + BULK_INTENTS.join(', '),
  })
  intent?: 'live' | 'draft';

  @ApiPropertyOptional({ ...CAPTURE_WILDCARD_PROPERTY, default: false })
  @PresentNotNull()
  @IsBoolean()
  captureWildcard?: boolean;

  @ApiPropertyOptional({
    ...PERMANENT_PROPERTY,
    description: `${PERMANENT_PROPERTY.description} Absent: unchanged (false for a new one).`,
  })
  @PresentNotNull()
  @IsBoolean()
  permanent?: boolean;

  @ApiProperty({
    ...INPUT_DESTINATION_PROPERTY,
    nullable: true,
    description: `${INPUT_DESTINATION_PROPERTY.description} null deletes the redirect.`,
  })
  @IsDestination({ input: true, nullable: true })
  destination!: SiteRedirectInputDestination | null;
}

export type BulkSiteRedirectItem = PublishSiteRedirectItemDto | UpsertSiteRedirectItemDto;

/** `bulkUpsertSiteRedirects` body. */
@ApiExtraModels(PublishSiteRedirectItemDto, UpsertSiteRedirectItemDto)
export class BulkUpsertSiteRedirectsDto {
  @ApiProperty({
    type: 'array',
    minItems: 1,
    maxItems: MAX_BULK_REDIRECTS,
    items: {
      oneOf: [
        { $ref: getSchemaPath(PublishSiteRedirectItemDto) },
        { $ref: getSchemaPath(UpsertSiteRedirectItemDto) },
      ],
    },
    description: 'Processed in order, each on its own: the answer lists how each one went.',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BULK_REDIRECTS)
  @ValidateNested({ each: true })
  @DiscriminatedType(
    'intent',
    {
      publish: PublishSiteRedirectItemDto,
      live: UpsertSiteRedirectItemDto,
      draft: UpsertSiteRedirectItemDto,
    },
    UpsertSiteRedirectItemDto,
  )
  redirects!: BulkSiteRedirectItem[];
}

const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

/** `listSiteRedirects` query. */
export class ListSiteRedirectsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Only the redirects whose source contains this text.' })
  @IsOptional()
  @IsString()
  @Chars(1, MAX_SOURCE_LENGTH)
  search?: string;

  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description: 'The draft redirects instead of the live ones.',
  })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  draft?: boolean;

  @ApiPropertyOptional({
    enum: SITE_REDIRECT_ORDERS,
    default: 'createdAt',
    description:
      '`createdAt`: newest first; `updatedAt`: last written first (an update, else the ' +
      'creation); `source`: by source path.',
  })
  @IsOptional()
  @IsIn(SITE_REDIRECT_ORDERS)
  orderBy?: SiteRedirectOrder;
}

/** `getSiteRedirectBySource` query. */
export class SiteRedirectBySourceQueryDto {
  @ApiProperty({ ...SOURCE_PROPERTY, description: 'The path to look up.' })
  @IsSourcePath()
  source!: string;

  @ApiPropertyOptional({
    description: 'Share key of a `share-link` site; accepted and not needed by members.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  shareKey?: string;
}
