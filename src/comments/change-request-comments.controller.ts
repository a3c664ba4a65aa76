import { CommentsController } from './comments.controller';
import { UpdateCommentDto } from './dto/comment.dto';

/**
 * Comments of a change request. A merged or archived change request still takes comments:
 * discussion goes on after a merge, as in GitBook.
 */
export class ChangeRequestCommentsController extends CommentsController({
  thread: 'changeRequest',
  path: 'spaces/:spaceId/change-requests/:changeRequestId',
  tag: 'change-request-comments',
  // A reply's update may resolve or reopen the comment replied to.
  updateReplyBody: UpdateCommentDto,
  operations: {
    list: {
      operationId: 'listCommentsInChangeRequest',
      summary: 'List all change request comments',
      description: 'Newest first unless `order=asc`.',
    },
    post: {
      operationId: 'postCommentInChangeRequest',
      summary: 'Create a change request comment',
      description:
        "On the change request's head revision; `page` must be one of its pages, `node` (with " +
        '`page`) the key of a node of that page, `tableCell` needs `node`.',
    },
    get: { operationId: 'getCommentInChangeRequest', summary: 'Get a change request comment' },
    update: {
      operationId: 'updateCommentInChangeRequest',
      summary: 'Update a change request comment',
    },
    remove: {
      operationId: 'deleteCommentInChangeRequest',
      summary: 'Delete a change request comment',
    },
    listReplies: {
      operationId: 'listCommentRepliesInChangeRequest',
      summary: 'List all change request comment replies',
    },
    postReply: {
      operationId: 'postCommentReplyInChangeRequest',
      summary: 'Create a change request comment reply',
    },
    getReply: {
      operationId: 'getCommentReplyInChangeRequest',
      summary: 'Get a change request comment reply',
    },
    updateReply: {
      operationId: 'updateCommentReplyInChangeRequest',
      summary: 'Update a change request comment reply',
      description:
        '`body`: its author only. `addedReactions`, `removedReactions`, and `resolved` (which ' +
        'resolves or reopens the comment replied to): the comment role or higher.',
    },
    removeReply: {
      operationId: 'deleteCommentReplyInChangeRequest',
      summary: 'Delete a change request comment reply',
    },
    commenters: {
      operationId: 'listCommentersInChangeRequest',
      summary: 'List all change request commenters',
      description: 'Members who commented or replied on the change request, latest activity first.',
    },
  },
}) {}
