import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChangeRequestsModule } from '../change-requests/change-requests.module';
import { SpaceContentModule } from '../spaces/space-content.module';
import { SpacesModule } from '../spaces/spaces.module';
import { MembersModule } from '../orgs/members/members.module';
import { UsersModule } from '../users/users.module';
import { CommentAccessPolicy } from './comment-access';
import { ChangeRequestCommentsController } from './change-request-comments.controller';
import { CommentersService } from './commenters.service';
import { CommentReactionsRepository } from './comment-reactions.repository';
import { CommentReactionsService } from './comment-reactions.service';
import { CommentThreadsService } from './comment-threads.service';
import { CommentViews } from './comment-views';
import { CommentWritesService } from './comment-writes.service';
import { MentionMail } from './mention-mail';
import { CommentEvents } from './comment-events';
import { CommentsPresenter } from './comments.presenter';
import { CommentsRepository } from './comments.repository';
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
    SpacesModule,
    MembersModule,
    UsersModule,
  ],
  controllers: [SpaceCommentsController, ChangeRequestCommentsController],
  providers: [
    CommentAccessPolicy,
    CommentsRepository,
    CommentReactionsRepository,
    CommentThreadsService,
    CommentWritesService,
    CommentReactionsService,
    CommentersService,
    CommentViews,
    CommentsPresenter,
    CommentEvents,
    MentionMail,
  ],
  exports: [CommentThreadsService],
})
export class CommentsModule {}
