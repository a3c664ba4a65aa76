import { Injectable } from '@nestjs/common';
import { Page } from '../platform/pagination/page';
import type { PageQueryDto } from '../platform/pagination/page-query.dto';
import { type CommenterRecord, threadScope, type ThreadRef } from './comment-thread';
import { CommentThreadsService } from './comment-threads.service';
import { CommentsRepository } from './comments.repository';

/** Who commented or replied in a thread. */
@Injectable()
export class CommentersService {
  constructor(
    private readonly threads: CommentThreadsService,
    private readonly comments: CommentsRepository,
  ) {}

  /**
   * The organization's members who commented or replied in the thread, latest activity first
   * (users who are no longer members are left out).
   */
  async list(ref: ThreadRef, userId: string, query: PageQueryDto): Promise<Page<CommenterRecord>> {
    const thread = await this.threads.resolve(ref, userId);
    return this.comments.listCommenters(threadScope(thread), ref.space.organizationId, query);
  }
}
