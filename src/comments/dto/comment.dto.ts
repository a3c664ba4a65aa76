import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  ValidateNested,
} from 'class-validator';
import { RichDocumentSchema } from '../../orgs/agent-instructions/dto/agent-instructions.dto';
import { PresentNotNull } from '../../platform/validation/present-not-null';
import { QueryList } from '../../platform/validation/query-list';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { Chars, MaxChars } from '../../platform/validation/chars';
import { MAX_EMOJI_CHARS } from '../entities/comment-reaction.entity';
import { IsCommentBody, MAX_MARKDOWN_CHARS, type CommentBodyInput } from './comment-body';

export const COMMENT_FORMATS = ['markdown', 'document'] as const;
export type CommentFormat = (typeof COMMENT_FORMATS)[number];

export const COMMENT_STATUS_FILTERS = ['all', 'open', 'resolved'] as const;
export type CommentStatusFilter = (typeof COMMENT_STATUS_FILTERS)[number];

export const LIST_ORDERS = ['asc', 'desc'] as const;
export type ListOrder = (typeof LIST_ORDERS)[number];

/** Most emojis one update may add (or remove). */
const MAX_REACTIONS_PER_UPDATE = 20;
/** Most authors one listing may filter on. */
const MAX_AUTHORS = 100;

/** GitBook's `Document` as a comment's body: markdown or a document, never `{}`. */
const BODY_SCHEMA: { oneOf: SchemaObject['oneOf'] } = {
  oneOf: [
    {
      type: 'object',
      properties: { markdown: { type: 'string', minLength: 1, maxLength: MAX_MARKDOWN_CHARS } },
      required: ['markdown'],
    },
    {
      type: 'object',
      properties: { document: { $ref: getSchemaPath(RichDocumentSchema) } },
      required: ['document'],
    },
  ],
};

/** `format`: how bodies are written in the response. */
export class CommentFormatQueryDto {
  @ApiPropertyOptional({
    enum: COMMENT_FORMATS,
    default: 'markdown',
    description: 'Bodies as `{markdown}` (the default) or `{document}`.',
  })
  @IsOptional()
  @IsIn(COMMENT_FORMATS)
  format?: CommentFormat;
}

/** `listCommentsInSpace` and `listCommentsInChangeRequest`'s query. */
export class ListCommentsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    enum: LIST_ORDERS,
    default: 'desc',
    description: 'By posting time (then id): newest first (`desc`) or oldest first (`asc`).',
  })
  @IsOptional()
  @IsIn(LIST_ORDERS)
  order?: ListOrder;

  @ApiPropertyOptional({ enum: COMMENT_STATUS_FILTERS, default: 'all' })
  @IsOptional()
  @IsIn(COMMENT_STATUS_FILTERS)
  status?: CommentStatusFilter;

  @ApiPropertyOptional({
    enum: COMMENT_FORMATS,
    default: 'markdown',
    description: 'Bodies as `{markdown}` (the default) or `{document}`.',
  })
  @IsOptional()
  @IsIn(COMMENT_FORMATS)
  format?: CommentFormat;

  @ApiPropertyOptional({ description: 'Only the comments on this page (its id).' })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  targetPage?: string;

  @ApiPropertyOptional({
    type: [String],
    description: 'Only the comments of these users (repeat the key: `authors=a&authors=b`).',
  })
  @QueryList()
  @ArrayMaxSize(MAX_AUTHORS)
  @IsString({ each: true })
  @MaxChars(64, { each: true })
  authors?: string[];
}

/** `listCommentReplies*`'s query. */
export class ListRepliesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    enum: COMMENT_FORMATS,
    default: 'markdown',
    description: 'Bodies as `{markdown}` (the default) or `{document}`.',
  })
  @IsOptional()
  @IsIn(COMMENT_FORMATS)
  format?: CommentFormat;
}

/** GitBook's `TableCellTarget`. */
export class TableCellTargetDto {
  @ApiProperty({ description: 'The record (row) of the table.' })
  @IsString()
  @Chars(1, 256)
  record!: string;

  @ApiProperty({ description: 'The definition (column) of the table.' })
  @IsString()
  @Chars(1, 256)
  definition!: string;
}

/** `postCommentIn*`'s body (GitBook's `PostCommentSchema`). */
@ApiExtraModels(RichDocumentSchema)
export class PostCommentDto {
  @ApiProperty({ ...BODY_SCHEMA, description: 'The comment: `{markdown}` or `{document}`.' })
  @IsCommentBody()
  body!: CommentBodyInput;

  @ApiPropertyOptional({
    description:
      'The page commented on: a page of the revision commented on (the primary revision, or ' +
      "the change request's).",
  })
  @PresentNotNull()
  @IsString()
  @Chars(1, 64)
  page?: string;

  @ApiPropertyOptional({
    description: 'The key of a node of that page commented on; needs `page`.',
  })
  @PresentNotNull()
  @IsString()
  @Chars(1, 256)
  node?: string;

  @ApiPropertyOptional({
    type: TableCellTargetDto,
    description:
      'The cell commented on: a record and a definition of the table that `node` is; needs `node`.',
  })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => TableCellTargetDto)
  tableCell?: TableCellTargetDto;
}

/** `postCommentReplyIn*`'s body (GitBook's `PostCommentReplySchema`). */
@ApiExtraModels(RichDocumentSchema)
export class PostCommentReplyDto {
  @ApiProperty({ ...BODY_SCHEMA, description: 'The reply: `{markdown}` or `{document}`.' })
  @IsCommentBody()
  body!: CommentBodyInput;
}

/** `updateCommentReplyInSpace`'s body (GitBook's `UpdateCommentReplySchema`). */
@ApiExtraModels(RichDocumentSchema)
export class UpdateCommentReplyDto {
  @ApiPropertyOptional({ ...BODY_SCHEMA, description: 'The new body; only its author may set it.' })
  @PresentNotNull()
  @IsCommentBody()
  body?: CommentBodyInput;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_REACTIONS_PER_UPDATE,
    description:
      'Emojis the caller reacts with; one reaction per user and emoji (adding one again changes nothing).',
  })
  @PresentNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_REACTIONS_PER_UPDATE)
  @IsString({ each: true })
  @Chars(1, MAX_EMOJI_CHARS, { each: true })
  addedReactions?: string[];

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_REACTIONS_PER_UPDATE,
    description: 'Emojis whose reaction by the caller is removed (one it does not have: nothing).',
  })
  @PresentNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_REACTIONS_PER_UPDATE)
  @IsString({ each: true })
  @Chars(1, MAX_EMOJI_CHARS, { each: true })
  removedReactions?: string[];
}

/**
 * `updateCommentIn*` and `updateCommentReplyInChangeRequest`'s body (GitBook's
 * `UpdateCommentSchema`); on a reply, `resolved` resolves or reopens its comment.
 */
export class UpdateCommentDto extends UpdateCommentReplyDto {
  @ApiPropertyOptional({
    description: 'true resolves the comment, false reopens it.',
  })
  @PresentNotNull()
  @IsBoolean()
  resolved?: boolean;
}
