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
} from 'class-validator';
import {
  IsDocument,
  IsDocumentInput,
  type DocumentInputRules,
} from '../../../content-engine/documents/document-validation';
import type { JSONDocument } from '../../../content-engine/documents/document';
import { RichDocumentSchema } from '../../../orgs/agent-instructions/dto/agent-instructions.dto';
import { PresentNotNull } from '../../../platform/validation/present-not-null';
import { PageQueryDto } from '../../../platform/pagination/page-query.dto';
import { MaxChars } from '../../../platform/validation/chars';
import { REVIEW_STATUSES, type ReviewStatus } from '../entities/change-request-review.entity';

export const COMMENT_FORMATS = ['markdown', 'document'] as const;
export type CommentFormat = (typeof COMMENT_FORMATS)[number];

/** Longest markdown comment, in characters. */
const MAX_MARKDOWN_CHARS = 100_000;
/** Most users one request may name. */
const MAX_REQUESTED_USERS = 50;

const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

/** GitBook's `Document` as input: `{markdown}`, `{document}`, or `{}` (nothing). */
export type DocumentInput =
  { markdown: string } | { document: JSONDocument } | Record<never, never>;

/** A review's comment: `{}` is no comment. */
export const REVIEW_COMMENT_INPUT: DocumentInputRules = { maxMarkdownChars: MAX_MARKDOWN_CHARS };

/** `format` of the review reads: how the comment's body is written. */
export class ReviewQueryDto {
  @ApiPropertyOptional({
    enum: COMMENT_FORMATS,
    default: 'markdown',
    description: "Body of the review's comment: `{markdown}` (default) or `{document}`.",
  })
  @IsOptional()
  @IsIn(COMMENT_FORMATS)
  format?: CommentFormat;
}

/** `getReviewsByChangeRequestId`'s query. */
export class ListReviewsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    enum: COMMENT_FORMATS,
    default: 'markdown',
    description: "Body of each review's comment: `{markdown}` (default) or `{document}`.",
  })
  @IsOptional()
  @IsIn(COMMENT_FORMATS)
  format?: CommentFormat;

  @ApiPropertyOptional({
    type: Boolean,
    description: 'Only outdated reviews (true) or only current ones (false); all when absent.',
  })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  outdated?: boolean;
}

/** `submitChangeRequestReview`'s body. */
@ApiExtraModels(RichDocumentSchema)
export class SubmitReviewDto {
  @ApiProperty({ enum: REVIEW_STATUSES })
  @IsIn(REVIEW_STATUSES)
  status!: ReviewStatus;

  @ApiPropertyOptional({
    oneOf: [
      {
        type: 'object',
        properties: { markdown: { type: 'string', maxLength: MAX_MARKDOWN_CHARS } },
        required: ['markdown'],
      },
      {
        type: 'object',
        properties: { document: { $ref: getSchemaPath(RichDocumentSchema) } },
        required: ['document'],
      },
      { type: 'object', properties: {}, additionalProperties: false },
    ],
    description: 'A comment along with the review; an empty one (`{}`, blank text) is none.',
  })
  @PresentNotNull()
  @IsDocumentInput(REVIEW_COMMENT_INPUT)
  comment?: DocumentInput;
}

/** `requestReviewersForChangeRequest`'s body. */
export class RequestReviewersDto {
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: MAX_REQUESTED_USERS,
    description:
      'Ids of the users to ask: members of the organization who can see the space, other ' +
      'than the change request’s creator. Asking a user again renews the request.',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_REQUESTED_USERS)
  @IsString({ each: true })
  @MaxChars(64, { each: true })
  users!: string[];

  @ApiPropertyOptional({ maxLength: 100, description: 'New subject of the change request.' })
  @PresentNotNull()
  @IsString()
  @MaxChars(100)
  subject?: string;

  @ApiPropertyOptional({
    type: RichDocumentSchema,
    description: 'New description of the change request.',
  })
  @PresentNotNull()
  @IsDocument()
  description?: JSONDocument;
}
