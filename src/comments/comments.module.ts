import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChangeRequestsModule } from '../change-requests/change-requests.module';
import { SpaceContentModule } from '../spaces/space-content.module';
import { MembersModule } from '../orgs/members/members.module';
import { UsersModule } from '../users/users.module';
import { ChangeRequestCommentsController } from './change-request-comments.controller';
import { CommentsPresenter } from './comments.presenter';
import { CommentsService } from './comments.service';
import { Comment } from './entities/comment.entity';
import { CommentReaction, CommentReplyReaction } from './entities/comment-reaction.entity';
import { CommentReply } from './entities/comment-reply.entity';
import { SpaceCommentsController } from './space-comments.controller';

/**
 * Comments and their replies and reactions, on a space (its own thread) or on one of its change
 * requests (that change request's thread); the open comment counts of both.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Comment, CommentReply, CommentReaction, CommentReplyReaction]),
    ChangeRequestsModule,
    SpaceContentModule,
    MembersModule,
    UsersModule,
  ],
  controllers: [SpaceCommentsController, ChangeRequestCommentsController],
  providers: [CommentsService, CommentsPresenter],
  exports: [CommentsService],
})
export class CommentsModule {}
