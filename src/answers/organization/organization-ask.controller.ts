import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Access } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import { clientGone, sendEventStream } from '../../platform/http/event-stream';
import { ApiEventStream, ApiModelDown, STREAM } from '../answer-docs';
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
import { Asker } from './asker.decorator';
import { OrganizationAnswersService, type OrganizationAsker } from './organization-answers.service';

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
  @ApiModelDown()
  ask(
    @Asker() asker: OrganizationAsker,
    @Body() body: AskInOrganizationDto,
    @Query() query: AskInOrganizationQueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<OrganizationAnswerResponse> {
    const format = query.format ?? 'document';
    return this.answers.askWhole(asker, body.query, format, clientGone(response));
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
  @ApiEventStream(SearchAIAnswerStreamResponse)
  @ApiBadRequestResponse({
    type: ErrorBody,
    description: 'Missing or invalid `query`, `format` or `details`.',
  })
  async streamAsk(
    @Asker() asker: OrganizationAsker,
    @Query() query: StreamAskInOrganizationQueryDto,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const format = query.format ?? 'document';
    const events = await this.answers.ask(asker, query.query, format, clientGone(response));
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
  @ApiModelDown()
  recommendedQuestions(
    @Asker() asker: OrganizationAsker,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SearchAIRecommendedQuestionsResponse> {
    return this.answers.recommendedQuestionList(asker, clientGone(response));
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
  @ApiEventStream(SearchAIRecommendedQuestionStreamResponse)
  async streamRecommendedQuestions(
    @Asker() asker: OrganizationAsker,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const events = await this.answers.recommendedQuestions(asker, clientGone(response));
    await sendEventStream(request, response, events);
  }
}
