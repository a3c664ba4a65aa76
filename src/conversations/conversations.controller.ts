import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiExtraModels,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, CurrentUser, Granted } from '../platform/auth/access.decorator';
import { LargeBody } from '../platform/validation/request-body';
import type { UserActor } from '../platform/auth/actor';
import { ErrorBody } from '../platform/errors/error-body';
import { mapPage, Page, PageOf } from '../platform/pagination/page';
import type { ResolvedAccess } from '../platform/policy/access';
import { apiTokenSource, CONVERSATIONS_INGEST, CONVERSATIONS_READ } from './conversations-access';
import { ConversationsPresenter } from './conversations.presenter';
import { ConversationsService } from './conversations.service';
import {
  ConversationInputDto,
  MAX_BATCH,
  parseConversationInputs,
} from './dto/conversation-input.dto';
import { ListConversationsQueryDto } from './dto/conversation-queries.dto';
import {
  ConversationResponse,
  ConversationWithPartsResponse,
  IngestedConversationsResponse,
} from './dto/conversation.response';
import { prefersRepresentation } from './prefer-header';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

@ApiTags('conversations')
@ApiExtraModels(ConversationInputDto)
@Controller('orgs/:organizationId/conversations')
export class ConversationsController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly presenter: ConversationsPresenter,
  ) {}

  @Get()
  @Access('organization', CONVERSATIONS_READ)
  @ApiOperation({
    operationId: 'listConversations',
    summary: 'List conversations',
    description: 'Newest first.',
  })
  @ApiOkResponse({ type: PageOf(ConversationResponse) })
  @badRequest
  async list(
    @Granted() organization: ResolvedAccess,
    @Query() query: ListConversationsQueryDto,
  ): Promise<Page<ConversationResponse>> {
    const page = await this.conversations.list(organization.id, query);
    return mapPage(page, (conversation) => this.presenter.conversation(conversation));
  }

  @Post()
  @HttpCode(204)
  @Access('organization', CONVERSATIONS_INGEST)
  @LargeBody()
  @ApiOperation({
    operationId: 'ingestConversation',
    summary: 'Ingest conversations',
    description:
      `One conversation or an array of at most ${MAX_BATCH}. Their source is ` +
      '`integration:api:<userId>` (the user of the token). Ingesting an id again updates the ' +
      'conversation. Nothing of a batch is stored when one item is invalid (400 names it, as ' +
      '`[index].field`). Issues and clusters are updated in the background; `processedAt` is ' +
      'set once a conversation is analysed.',
  })
  @ApiBody({
    schema: {
      oneOf: [
        { $ref: getSchemaPath(ConversationInputDto) },
        { type: 'array', items: { $ref: getSchemaPath(ConversationInputDto) } },
      ],
    },
  })
  @ApiHeader({
    name: 'Prefer',
    required: false,
    description:
      "Bindery's: `return=representation` answers 200 with the stored conversations (their " +
      'ids), in the order sent, instead of 204.',
  })
  @ApiNoContentResponse({ description: 'Conversations ingested.' })
  @ApiOkResponse({
    type: IngestedConversationsResponse,
    description: 'Conversations ingested, with `Prefer: return=representation`.',
  })
  @badRequest
  async ingest(
    @Granted() organization: ResolvedAccess,
    @CurrentUser() actor: UserActor,
    @Body() body: unknown,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<IngestedConversationsResponse | void> {
    const inputs = parseConversationInputs(body);
    const source = apiTokenSource(actor.userId);
    const ids = await this.conversations.ingest(organization.id, source, inputs);
    if (!prefersRepresentation(prefer)) return;
    const stored = await this.conversations.findMany(organization.id, ids);
    response.status(200).setHeader('Preference-Applied', 'return=representation');
    return { items: stored.map((conversation) => this.presenter.conversation(conversation)) };
  }

  @Get(':conversationId')
  @Access('organization', CONVERSATIONS_READ)
  @ApiOperation({ operationId: 'getConversationById', summary: 'Get a conversation by ID' })
  @ApiOkResponse({ type: ConversationWithPartsResponse })
  async get(
    @Granted() organization: ResolvedAccess,
    @Param('conversationId') conversationId: string,
  ): Promise<ConversationWithPartsResponse> {
    const conversation = await this.conversations.get(organization.id, conversationId);
    return this.presenter.conversationWithParts(conversation);
  }
}
