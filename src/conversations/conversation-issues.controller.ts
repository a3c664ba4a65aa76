import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access, Granted } from '../platform/auth/access.decorator';
import { ErrorBody } from '../platform/errors/error-body';
import { mapPage, Page, PageOf } from '../platform/pagination/page';
import type { ResolvedAccess } from '../platform/policy/access';
import { CONVERSATIONS_READ } from './conversations-access';
import { ConversationsPresenter } from './conversations.presenter';
import { ConversationsService } from './conversations.service';
import { ListConversationIssuesQueryDto } from './dto/conversation-queries.dto';
import { ConversationIssueWithConversationResponse } from './dto/conversation.response';

@ApiTags('conversations')
@Controller('orgs/:organizationId/conversations-issues')
export class ConversationIssuesController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly presenter: ConversationsPresenter,
  ) {}

  @Get()
  @Access('organization', CONVERSATIONS_READ)
  @ApiOperation({
    operationId: 'listConversationsIssues',
    summary: 'List conversation issues',
    description: 'Newest first (by the time of their conversation), each with its conversation.',
  })
  @ApiOkResponse({ type: PageOf(ConversationIssueWithConversationResponse) })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' })
  async list(
    @Granted() organization: ResolvedAccess,
    @Query() query: ListConversationIssuesQueryDto,
  ): Promise<Page<ConversationIssueWithConversationResponse>> {
    const page = await this.conversations.listIssues(organization.id, query);
    return mapPage(page, (issue) => this.presenter.issueWithConversation(issue));
  }

  @Get(':issueId')
  @Access('organization', CONVERSATIONS_READ)
  @ApiOperation({
    operationId: 'getConversationIssueById',
    summary: 'Get a conversation issue by ID',
  })
  @ApiOkResponse({ type: ConversationIssueWithConversationResponse })
  async get(
    @Granted() organization: ResolvedAccess,
    @Param('issueId') issueId: string,
  ): Promise<ConversationIssueWithConversationResponse> {
    const issue = await this.conversations.getIssue(organization.id, issueId);
    return this.presenter.issueWithConversation(issue);
  }
}
