import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { JSONDocument } from '../../content-engine/documents/document';
import { RichDocumentSchema } from '../../orgs/agent-instructions/dto/agent-instructions.dto';
import { LocationUrls, UserResponse } from '../../users/dto/user.response';
import { COMMENT_STATUSES, type CommentStatus } from '../entities/comment.entity';

/** GitBook's `Document` in a response: the body in the format asked for. */
export class CommentBodyResponse {
  @ApiPropertyOptional({ description: 'With `format=markdown` (the default).' })
  markdown?: string;
  @ApiPropertyOptional({ type: RichDocumentSchema, description: 'With `format=document`.' })
  document?: JSONDocument;
}

class ReactionUserResponse {
  @ApiProperty({ type: UserResponse }) user!: UserResponse;
  @ApiProperty({ format: 'date-time' }) reactedAt!: string;
}

/** GitBook's `EmojiReaction`. */
export class EmojiReactionResponse {
  @ApiProperty() emoji!: string;
  @ApiProperty({ description: 'How many users reacted with it.' }) count!: number;
  @ApiProperty({ type: [ReactionUserResponse], description: 'In the order they reacted.' })
  users!: ReactionUserResponse[];
}

/** GitBook's `UserContributor`: one user who replied. */
export class ReplierResponse {
  @ApiProperty({ type: UserResponse }) user!: UserResponse;
  @ApiProperty({ description: 'How many replies of the user.' }) count!: number;
  @ApiProperty({ format: 'date-time', description: "When the user's latest reply was posted." })
  updatedAt!: string;
}

class IdResponse {
  @ApiProperty() id!: string;
}

class TableCellResponse {
  @ApiProperty() record!: string;
  @ApiProperty() definition!: string;
}

export class CommentTargetResponse {
  @ApiProperty({ description: 'ID of the space.' }) space!: string;
  @ApiProperty({
    description: "The revision commented on: the space's primary, or the change request's head.",
  })
  revision!: string;
  @ApiPropertyOptional({ type: IdResponse, description: 'The page commented on.' })
  page?: IdResponse;
  @ApiPropertyOptional({ type: IdResponse, description: 'The node of that page commented on.' })
  node?: IdResponse;
  @ApiPropertyOptional({ type: TableCellResponse }) tableCell?: TableCellResponse;
  @ApiPropertyOptional({ description: 'ID of the change request, for its comments.' })
  changeRequest?: string;
}

export class CommentPermissionsResponse {
  @ApiProperty() view!: boolean;
  @ApiProperty({ description: 'Only the author edits the body.' }) edit!: boolean;
  @ApiProperty({ description: 'The author, or an admin of the space.' }) delete!: boolean;
  @ApiProperty({ description: 'Reply and react: the comment role or higher.' }) reply!: boolean;
}

/** GitBook's `CommentReply`. */
export class CommentReplyResponse {
  @ApiProperty({ enum: ['comment-reply'] }) object!: 'comment-reply';
  @ApiProperty() id!: string;
  @ApiProperty({ type: UserResponse }) postedBy!: UserResponse;
  @ApiProperty({ format: 'date-time' }) postedAt!: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'Absent while never edited.' })
  editedAt?: string;
  @ApiProperty({ type: [EmojiReactionResponse], description: 'In the order of first reaction.' })
  reactions!: EmojiReactionResponse[];
  @ApiProperty({ type: CommentBodyResponse }) body!: CommentBodyResponse;
  @ApiProperty({ type: LocationUrls }) urls!: LocationUrls;
  @ApiProperty({ type: CommentPermissionsResponse }) permissions!: CommentPermissionsResponse;
}

/** GitBook's `Comment`. */
export class CommentResponse {
  @ApiProperty({ enum: ['comment'] }) object!: 'comment';
  @ApiProperty() id!: string;
  @ApiProperty({ type: UserResponse }) postedBy!: UserResponse;
  @ApiProperty({ format: 'date-time' }) postedAt!: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'Absent while never edited.' })
  editedAt?: string;
  @ApiProperty({ type: [EmojiReactionResponse], description: 'In the order of first reaction.' })
  reactions!: EmojiReactionResponse[];
  @ApiProperty({ description: 'Number of replies.' }) replies!: number;
  @ApiProperty({ type: [ReplierResponse], description: 'Latest reply first.' })
  repliers!: ReplierResponse[];
  @ApiProperty({ type: CommentBodyResponse }) body!: CommentBodyResponse;
  @ApiProperty({ type: CommentTargetResponse }) target!: CommentTargetResponse;
  @ApiProperty({ type: LocationUrls }) urls!: LocationUrls;
  @ApiProperty({ type: CommentPermissionsResponse }) permissions!: CommentPermissionsResponse;
  @ApiProperty({ enum: COMMENT_STATUSES }) status!: CommentStatus;
  @ApiPropertyOptional({ format: 'date-time', description: 'When resolved; absent when open.' })
  resolvedAt?: string;
  @ApiPropertyOptional({ type: UserResponse, description: 'Who resolved it; absent when open.' })
  resolvedBy?: UserResponse;
}
