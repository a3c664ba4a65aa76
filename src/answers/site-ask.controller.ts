import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOperation } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Access, CurrentActor, Granted } from '../platform/auth/access.decorator';
import type { Actor } from '../platform/auth/actor';
import { ErrorBody } from '../platform/errors/error-body';
import { clientGone, sendEventStream } from '../platform/http/event-stream';
import { SITE_READ } from '../sites/site-access';
import type { SiteAccess } from '../sites/site-access.policy';
import { ApiEventStream, STREAM } from './answer-docs';
import {
  AskInSiteDto,
  AskInSiteQueryDto,
  RecommendedQuestionsQueryDto,
} from './dto/ask-in-site.dto';
import {
  SearchAIAnswerStreamResponse,
  SearchAIRecommendedQuestionStreamResponse,
} from './dto/search-ai-answer.response';
import { AskRecorder } from './questions/ask-recorder';
import { NO_MODEL_ANSWER, SiteAnswersService } from './site-answers.service';

const AI_OFF =
  '403 when AI is off: the organization’s `ai` is false, or the site’s `ai.mode` (of the site ' +
  'space asked from, when named) is `none`.';

/** A site's answers: GitBook's ask operations, over what the caller may read of the site. */
@Controller('orgs/:organizationId/sites/:siteId/ask')
export class SiteAskController {
  constructor(
    private readonly answers: SiteAnswersService,
    private readonly recorder: AskRecorder,
  ) {}

  @Post()
  @HttpCode(200)
  @Access('site', SITE_READ, { param: 'siteId', siteReaders: true, reads: true })
  @ApiOperation({
    operationId: 'streamAskInSite',
    summary: 'Ask a question in a site',
    description:
      'An answer written by the model configured with `AI_API_URL` from the pages the site ' +
      'search finds for the question in the scope, as the caller may read them (a site’s token: ' +
      'only what its visitor sees). Each event is the answer so far: the first has the sources ' +
      'and no answer yet, the last the follow-up questions. Without a model, one event: the ' +
      `pages found as sources and an answer saying no model is configured. Each ask is ` +
      'recorded once its stream ends (`listSiteQuestions`, `listSiteQuestionAnswers`). ' +
      `${STREAM} ${AI_OFF}`,
  })
  @ApiEventStream(SearchAIAnswerStreamResponse)
  @ApiBadRequestResponse({
    type: ErrorBody,
    description:
      'Missing or invalid `question`, `scope` or `format`, or a site space not in the site.',
  })
  async ask(
    @CurrentActor() actor: Actor,
    @Granted() access: SiteAccess,
    @Body() body: AskInSiteDto,
    @Query() query: AskInSiteQueryDto,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const signal = clientGone(response);
    const events = await this.answers.ask(
      access.entity,
      actor,
      body,
      query.format ?? 'document',
      signal,
    );
    // Recorded once the stream ends (site questions); the request id is the answer's responseId.
    const ask = { responseId: String(request.id ?? ''), signal, noAnswer: NO_MODEL_ANSWER };
    await sendEventStream(
      request,
      response,
      this.recorder.recorded(access.entity, actor, body, ask, events),
    );
  }

  @Get('questions')
  @Access('site', SITE_READ, { param: 'siteId', siteReaders: true })
  @ApiOperation({
    operationId: 'streamRecommendedQuestionsInSite',
    summary: 'List recommended questions to ask in a site',
    description:
      'Questions a reader may ask, one per event: written by the model from the titles of the ' +
      'pages the caller sees (of `siteSpaceId` alone, or the site’s default site spaces); ' +
      `without a model, asked of the first of those pages, in the site’s order. ${STREAM} ${AI_OFF}`,
  })
  @ApiEventStream(SearchAIRecommendedQuestionStreamResponse)
  @ApiBadRequestResponse({ type: ErrorBody, description: 'A site space not in the site.' })
  async recommendedQuestions(
    @CurrentActor() actor: Actor,
    @Granted() access: SiteAccess,
    @Query() query: RecommendedQuestionsQueryDto,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const events = await this.answers.recommendedQuestions(
      access.entity,
      actor,
      query,
      clientGone(response),
    );
    await sendEventStream(request, response, events);
  }
}
