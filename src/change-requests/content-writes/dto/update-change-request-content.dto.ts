import { IsCondition } from '../../../platform/conditions/condition.validator';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { RichDocumentSchema } from '../../../orgs/agent-instructions/dto/agent-instructions.dto';
import {
  IsDocumentInput,
  type DocumentInputRules,
} from '../../../content-engine/documents/document-validation';
import type { JSONDocument } from '../../../content-engine/documents/document';
import { ID_PATTERN } from '../../../platform/ids/ids';
import { Chars, MaxChars } from '../../../platform/validation/chars';
import { DiscriminatedType } from '../../../platform/validation/discriminated-type';
import { PresentNotNull } from '../../../platform/validation/present-not-null';

/** REFERENCE §16: 1..50 changes per request, 1..20 files per `insert_files`. */
export const MAX_CHANGES = 50;
export const MAX_FILES_PER_CHANGE = 20;
/** Longest markdown body, in characters, and largest JSON document body, in bytes. */
export const MAX_MARKDOWN_CHARS = 1_000_000;
export const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;
/** A batch-local name: what `./<ref>.md` and `./<ref>` may say in markdown links. */
export const REF_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export const CHANGE_OPERATIONS = [
  'insert_page',
  'update_page',
  'delete_page',
  'revert_page',
  'insert_files',
] as const;
export type ChangeOperation = (typeof CHANGE_OPERATIONS)[number];

/** GitBook's `Document` as input: `{markdown}`, `{document}`, or `{}` (an empty page). */
export type PageDocumentInput = { markdown?: string; document?: JSONDocument };

/** A page's body: `{}` is an empty page; large documents are allowed (MAX_DOCUMENT_BYTES). */
const PAGE_DOCUMENT_INPUT: DocumentInputRules = {
  maxMarkdownChars: MAX_MARKDOWN_CHARS,
  limits: { maxBytes: MAX_DOCUMENT_BYTES, maxDepth: 64 },
};

class PageDocumentInputSchema {
  @ApiPropertyOptional({
    maxLength: MAX_MARKDOWN_CHARS,
    description:
      'Markdown (GFM and GitBook block tags). A leading YAML frontmatter block sets page ' +
      'metadata; relative links are resolved against the pages of the change request.',
  })
  markdown?: string;

  @ApiPropertyOptional({ type: RichDocumentSchema }) document?: JSONDocument;
}

const PAGE_DOCUMENT_PROPERTY = {
  type: PageDocumentInputSchema,
  description: '`{markdown}`, `{document}` (a JSON document), or `{}` (an empty page).',
};

/** A page id in a change: as GitBook's ids are. */
const IsPageId = () => Matches(ID_PATTERN, { message: '$property must be a page id' });

/**
 * GitBook's `RevisionPageUpdate`: metadata of a page, all optional. Markdown frontmatter
 * overrides these. An empty `emoji`, `icon`, `description` or `condition` removes it.
 */
export class PageMetadataDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 255 })
  @IsOptional()
  @IsString()
  @Chars(1, 255)
  title?: string;

  @ApiPropertyOptional({
    maxLength: 100,
    description: 'Unique among the sibling pages; derived from the title when a page is created.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(100)
  slug?: string;

  @ApiPropertyOptional({ maxLength: 50, description: 'A Unicode emoji (code point or character).' })
  @IsOptional()
  @IsString()
  @MaxChars(50)
  emoji?: string;

  @ApiPropertyOptional({ maxLength: 50, description: 'An icon name; empty removes it.' })
  @IsOptional()
  @IsString()
  @MaxChars(50)
  icon?: string;

  @ApiPropertyOptional({ maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxChars(1000)
  description?: string;

  @ApiPropertyOptional() @IsOptional() @IsBoolean() hidden?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() noIndex?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() noRobotsIndex?: boolean;

  @ApiPropertyOptional({
    maxLength: 1024,
    description:
      "An expression over the visitor's claims deciding who sees the page on a published " +
      'site (as site-space conditions are written); empty removes it.',
  })
  @IsOptional()
  @IsString()
  @ValidateIf((_, value) => value !== '')
  @IsCondition()
  condition?: string;
}

/** What every change has; an unknown `operation` is validated as this (and refused). */
export class ChangeDto {
  @ApiProperty({ enum: CHANGE_OPERATIONS })
  @IsIn(CHANGE_OPERATIONS)
  operation!: ChangeOperation;
}

export class InsertPageChangeDto extends PageMetadataDto {
  @ApiProperty({ enum: ['insert_page'] })
  @IsIn(['insert_page'])
  operation!: 'insert_page';

  @ApiProperty(PAGE_DOCUMENT_PROPERTY)
  @IsDocumentInput(PAGE_DOCUMENT_INPUT)
  document!: PageDocumentInput;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Parent page id; omitted or null: at the top level.',
  })
  @IsOptional()
  @IsString()
  @IsPageId()
  into?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    description: 'Index among its siblings; omitted: last.',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  at?: number;

  @ApiPropertyOptional({
    description: 'Name of the page within the batch: other pages may link to `./<ref>.md`.',
  })
  @IsOptional()
  @IsString()
  @Matches(REF_PATTERN, { message: '$property must be 1..100 letters, digits, ".", "_" or "-"' })
  ref?: string;
}

export class UpdatePageChangeDto extends PageMetadataDto {
  @ApiProperty({ enum: ['update_page'] })
  @IsIn(['update_page'])
  operation!: 'update_page';

  @ApiProperty() @IsString() @IsPageId() page!: string;

  @ApiPropertyOptional({
    ...PAGE_DOCUMENT_PROPERTY,
    description: `${PAGE_DOCUMENT_PROPERTY.description} Omitted: the body is unchanged.`,
  })
  @PresentNotNull()
  @IsDocumentInput(PAGE_DOCUMENT_INPUT)
  document?: PageDocumentInput;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'New parent page id; null: move to the top level; omitted: same parent.',
  })
  @IsOptional()
  @IsString()
  @IsPageId()
  into?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    description: 'New index among its siblings.',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  at?: number;
}

export class DeletePageChangeDto {
  @ApiProperty({ enum: ['delete_page'] })
  @IsIn(['delete_page'])
  operation!: 'delete_page';

  @ApiProperty({ description: 'Deleted with its subpages.' })
  @IsString()
  @IsPageId()
  page!: string;
}

export class RevertPageChangeDto {
  @ApiProperty({ enum: ['revert_page'] })
  @IsIn(['revert_page'])
  operation!: 'revert_page';

  @ApiProperty() @IsString() @IsPageId() page!: string;

  @ApiPropertyOptional({
    description:
      "Revision to revert to; default: the change request's base (the primary revision it " +
      'was last updated from, else the one it started from).',
  })
  @IsOptional()
  @IsString()
  @Matches(ID_PATTERN, { message: '$property must be a revision id' })
  revision?: string;

  @ApiPropertyOptional({
    type: [String],
    description: 'Keys of top-level blocks to revert; omitted: the whole page.',
  })
  @PresentNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @MaxChars(100, { each: true })
  block?: string[];
}

/** A file to add: exactly one of `url` or `base64`; `contentType` required with `base64`. */
export class InsertFileDto {
  @ApiProperty({ minLength: 1, maxLength: 256 })
  @IsString()
  @Chars(1, 256)
  name!: string;

  @ApiPropertyOptional({ description: 'Required with base64; sniffed from a URL response.' })
  @IsOptional()
  @IsString()
  @MaxChars(255)
  contentType?: string;

  @ApiPropertyOptional({ description: 'Name of the file within the batch: `./<ref>` in links.' })
  @IsOptional()
  @IsString()
  @Matches(REF_PATTERN, { message: '$property must be 1..100 letters, digits, ".", "_" or "-"' })
  ref?: string;

  @ApiPropertyOptional({
    format: 'uri',
    maxLength: 2048,
    description: 'A public http(s) URL to fetch the file from.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(2048)
  url?: string;

  @ApiPropertyOptional({ description: 'The bytes, base64-encoded; at most 1 MB decoded.' })
  @IsOptional()
  @IsString()
  base64?: string;
}

export class InsertFilesChangeDto {
  @ApiProperty({ enum: ['insert_files'] })
  @IsIn(['insert_files'])
  operation!: 'insert_files';

  @ApiProperty({ type: [InsertFileDto], minItems: 1, maxItems: MAX_FILES_PER_CHANGE })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_FILES_PER_CHANGE)
  @ValidateNested({ each: true })
  @Type(() => InsertFileDto)
  files!: InsertFileDto[];
}

export type Change =
  | InsertPageChangeDto
  | UpdatePageChangeDto
  | DeletePageChangeDto
  | RevertPageChangeDto
  | InsertFilesChangeDto;

const CHANGE_TYPES = [
  InsertPageChangeDto,
  UpdatePageChangeDto,
  DeletePageChangeDto,
  RevertPageChangeDto,
  InsertFilesChangeDto,
];

/** `updateChangeRequestContent`'s body. */
@ApiExtraModels(...CHANGE_TYPES)
export class UpdateChangeRequestContentDto {
  @ApiProperty({
    type: 'array',
    minItems: 1,
    maxItems: MAX_CHANGES,
    items: {
      oneOf: CHANGE_TYPES.map((type) => ({ $ref: getSchemaPath(type) })),
      discriminator: { propertyName: 'operation' },
    },
    description: 'Applied in order, all or nothing, as one new revision.',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_CHANGES)
  @ValidateNested({ each: true })
  @DiscriminatedType(
    'operation',
    {
      insert_page: InsertPageChangeDto,
      update_page: UpdatePageChangeDto,
      delete_page: DeletePageChangeDto,
      revert_page: RevertPageChangeDto,
      insert_files: InsertFilesChangeDto,
    },
    ChangeDto,
  )
  changes!: Change[];
}

const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

export class UpdateChangeRequestContentQueryDto {
  @ApiPropertyOptional({
    type: Boolean,
    default: true,
    description:
      'true: the response is the updated change request; false: `{changeRequest, changes, ' +
      'insertedFiles}`, naming each page the request created, updated or deleted.',
  })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  compat?: boolean;
}
