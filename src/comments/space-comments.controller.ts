import { CommentsController } from './comments.controller';
import { UpdateCommentReplyDto } from './dto/comment.dto';

/** A space's own comments (those of its change requests are elsewhere). */
export class SpaceCommentsController extends CommentsController({
  thread: 'space',
  path: 'spaces/:spaceId',
  tag: 'space-comments',
  updateReplyBody: UpdateCommentReplyDto,
  operations: {
    list: {
      operationId: 'listCommentsInSpace',
      summary: 'List all space comments',
      description:
        "The space's own comments (not its change requests'), newest first unless `order=asc`.",
    },
    post: {
      operationId: 'postCommentInSpace',
      summary: 'Create a space comment',
      description:
        "On the space's primary revision; `page` must be one of its pages, `node` (with `page`) " +
        'the key of a node of that page, `tableCell` needs `node`.',
    },
    get: { operationId: 'getCommentInSpace', summary: 'Get a space comment' },
    update: { operationId: 'updateCommentInSpace', summary: 'Update a space comment' },
    remove: { operationId: 'deleteCommentInSpace', summary: 'Delete a space comment' },
    listReplies: {
      operationId: 'listCommentRepliesInSpace',
      summary: 'List all space comment replies',
    },
    postReply: { operationId: 'postCommentReplyInSpace', summary: 'Create a space comment reply' },
    getReply: { operationId: 'getCommentReplyInSpace', summary: 'Get a space comment reply' },
    updateReply: {
      operationId: 'updateCommentReplyInSpace',
      summary: 'Update a space comment reply',
      description:
        '`body`: its author only. `addedReactions`, `removedReactions`: the comment role or higher.',
    },
    removeReply: {
      operationId: 'deleteCommentReplyInSpace',
      summary: 'Delete a space comment reply',
    },
    commenters: {
      operationId: 'listCommentersInSpace',
      summary: 'List all space commenters',
      description:
        "Members who commented or replied on the space's own comments, latest activity first.",
    },
  },
}) {}
