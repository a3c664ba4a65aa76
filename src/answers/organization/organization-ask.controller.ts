import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { Organization } from '../../orgs/entities/organization.entity';
import { Access, CurrentUser, Granted } from '../../platform/auth/access.decorator';
import type { UserActor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { clientGone, sendEventStream } from '../../platform/http/event-stream';
import type { ResolvedAccess } from '../../platform/policy/access';
import {
  AskInOrganizationDto,
  AskInOrganizationQueryDto,
  StreamAskInOrganizationQueryDto,
} from '../dto/ask-in-organization.dto';
import {
  OrganizationAnswerResponse,
  SearchAIRecommendedQuestionsResponse,
} from '../dto/organization-answer.response';
import {
  SearchAIAnswerStreamResponse,
  SearchAIRecommendedQuestionStreamResponse,
} from '../dto/search-ai-answer.response';
import { OrganizationAnswersService } from './organization-answers.service';

const STREAM =
  'A stream of server-sent events: each a `data:` line of JSON, then `event: done`; a failure ' +
  'once it has begun (the model down or erring) is `event: error` with `{"error":{"code",' +
  '"message"}}`.';
const DRAWS_ON =
  'It draws on the primary content of the spaces the caller may read (members with a role: ' +
  'every space; guests: those granted to them), as `searchOrganizationContent` finds it; ' +
  'change requests’ drafts never. 403 while the organization’s `ai` is false; 429 beyond ' +
  'AI_ASK_PER_MEMBER_PER_MINUTE questions a minute or once the monthly token budget ' +
  '(AI_MONTHLY_TOKEN_BUDGET) is used, with `Retry-After`.';

/** An organization's answers: GitBook's organization ask, over what the member may read. */
@Controller('orgs/:organizationId/ask')
export class OrganizationAskController {
  constructor(private readonly answers: OrganizationAnswersService) {}

  @Post()
  @HttpCode(200)
  @Access('organization', 'view', { reads: true })
  @ApiOperation({
    operationId: 'askInOrganization',
    summary: 'Ask a question in an organization',
    description:
      'An answer written by the model configured with `AI_API_URL` from the pages the ' +
      'search finds for the question, with its sources (space, revision, page, sections) and ' +
      `follow-up questions. ${DRAWS_ON} Without a model: the pages found as sources and an ` +
      'answer saying no model is configured. 503 when the model is down or errs.',
  })
  @ApiOkResponse({ type: OrganizationAnswerResponse })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description: 'Missing or invalid `query`, `previousQueries`, `format` or `details`.',
  })
  @ApiServiceUnavailableResponse({
    type: ErrorBody,
    description: 'The model is down, answered an error or broke off.',
  })
  async ask(
    @CurrentUser() actor: UserActor,
    @Granted() access: ResolvedAccess<Organization>,
    @Body() body: AskInOrganizationDto,
    @Query() query: AskInOrganizationQueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<OrganizationAnswerResponse> {
    return this.answers.askWhole(
      access.entity!,
      { userId: actor.userId, role: access.role },
      body.query,
      query.format ?? 'document',
      clientGone(response),
    );
  }

  @Get('stream')
  @Access('organization', 'view')
  @ApiOperation({
    operationId: 'streamAskInOrganization',
    summary: 'Ask a question in an organization (streamed)',
    description:
      'As `askInOrganization`, the answer streamed as the model writes it: the first event has ' +
      `the sources and no answer yet, the last the follow-up questions. ${DRAWS_ON} ${STREAM}`,
  })
  @ApiOkResponse({
    description: 'Events of `SearchAIAnswerStream`.',
    content: {
      'text/event-stream': { schema: { $ref: getSchemaPath(SearchAIAnswerStreamResponse) } },
    },
  })
  @ApiBadRequestResponse({
    type: ErrorBody,
    description: 'Missing or invalid `query`, `format` or `details`.',
  })
  async streamAsk(
    @CurrentUser() actor: UserActor,
    @Granted() access: ResolvedAccess<Organization>,
    @Query() query: StreamAskInOrganizationQueryDto,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const events = await this.answers.ask(
      access.entity!,
      { userId: actor.userId, role: access.role },
      query.query,
      query.format ?? 'document',
      clientGone(response),
    );
    await sendEventStream(request, response, events);
  }

  @Get('questions')
  @Access('organization', 'view')
  @ApiOperation({
    operationId: 'getRecommendedQuestionsInOrganization',
    summary: 'List recommended questions to ask in an organization',
    description:
      'Questions a member may ask, written by the model from the titles of the pages of the ' +
      'spaces it may read; without a model (or once the monthly token budget is used), asked ' +
      'of the first of those pages. 403 while the organization’s `ai` is false; 503 when the ' +
      'model is down or errs.',
  })
  @ApiOkResponse({ type: SearchAIRecommendedQuestionsResponse })
  @ApiServiceUnavailableResponse({
    type: ErrorBody,
    description: 'The model is down, answered an error or broke off.',
  })
  async recommendedQuestions(
    @CurrentUser() actor: UserActor,
    @Granted() access: ResolvedAccess<Organization>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SearchAIRecommendedQuestionsResponse> {
    return this.answers.recommendedQuestionList(
      access.entity!,
      { userId: actor.userId, role: access.role },
      clientGone(response),
    );
  }

  @Get('questions/stream')
  @Access('organization', 'view')
  @ApiOperation({
    operationId: 'streamRecommendedQuestionsInOrganization',
    summary: 'List recommended questions to ask in an organization (streamed)',
    description:
      'As `getRecommendedQuestionsInOrganization`, one question per event as soon as the model ' +
      `has written it. ${STREAM} 403 while the organization’s \`ai\` is false.`,
  })
  @ApiOkResponse({
    description: 'Events of `SearchAIRecommendedQuestionStream`.',
    content: {
      'text/event-stream': {
        schema: { $ref: getSchemaPath(SearchAIRecommendedQuestionStreamResponse) },
      },
    },
  })
  async streamRecommendedQuestions(
    @CurrentUser() actor: UserActor,
    @Granted() access: ResolvedAccess<Organization>,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const events = await this.answers.recommendedQuestions(
      access.entity!,
      { userId: actor.userId, role: access.role },
      clientGone(response),
    );
    await sendEventStream(request, response, events);
  }
}
