import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import { mapPage, type Page, PageOf } from '../../platform/pagination/page';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { SITE_READ } from '../../sites/site-access';
import type { SiteAccess } from '../../sites/site-access.policy';
import {
  ListSiteQuestionAnswersQueryDto,
  ListSiteQuestionSourcesQueryDto,
  ListSiteQuestionsQueryDto,
  SiteQuestionQueryDto,
  SiteQuestionStatsQueryDto,
} from './dto/site-question-queries.dto';
import {
  SiteQuestionAnswerResponse,
  SiteQuestionAnswerSourceResponse,
  SiteQuestionAnswerWithResponseResponse,
  SiteQuestionResponse,
  SiteQuestionStatsResponse,
} from './dto/site-question.response';
import { SiteQuestionsPresenter } from './site-questions.presenter';
import { SiteQuestionsService } from './site-questions.service';

const badRequest = ApiBadRequestResponse({
  type: ErrorBody,
  description: 'Invalid filter or page.',
});
const KEPT =
  'Questions are recorded when asked with `streamAskInSite` and kept AI_QUESTIONS_RETENTION_DAYS ' +
  '(90 by default).';

/**
 * What was asked of a site's AI answers (GitBook's site questions): members who read the site
 * read them; a site's token does not.
 */
@Controller('orgs/:organizationId/sites/:siteId')
export class SiteQuestionsController {
  constructor(
    private readonly questions: SiteQuestionsService,
    private readonly presenter: SiteQuestionsPresenter,
  ) {}

  @Get('questions')
  @Access('site', SITE_READ)
  @ApiOperation({
    operationId: 'listSiteQuestions',
    summary: "List the questions visitors asked a site's Ask AI assistant",
    description:
      'The questions asked of the site (one per text, case, spacing and end punctuation aside), ' +
      'each with the counts of its answers the filters keep; a question with none is left out. ' +
      '`answered=no` finds those asked with no page found or no answer written. Newest first by ' +
      `default; paginated. ${KEPT}`,
  })
  @ApiOkResponse({ type: PageOf(SiteQuestionResponse) })
  @badRequest
  async list(
    @Granted() access: SiteAccess,
    @Query() query: ListSiteQuestionsQueryDto,
  ): Promise<Page<SiteQuestionResponse>> {
    const page = await this.questions.listQuestions(access.entity.site.id, query, query);
    return mapPage(page, (question) => this.presenter.question(access.entity, question));
  }

  @Get('questions/:siteQuestionId')
  @Access('site', SITE_READ)
  @ApiOperation({
    operationId: 'getSiteQuestionById',
    summary: 'Get a single Ask AI question by ID',
    description: `The question with the counts of its answers the filters keep. ${KEPT}`,
  })
  @ApiOkResponse({ type: SiteQuestionResponse })
  @badRequest
  async get(
    @Granted() access: SiteAccess,
    @Param('siteQuestionId') id: string,
    @Query() query: SiteQuestionQueryDto,
  ): Promise<SiteQuestionResponse> {
    const question = await this.questions.getQuestion(access.entity.site.id, id, query);
    return this.presenter.question(access.entity, question);
  }

  @Get('questions/:siteQuestionId/sources')
  @Access('site', SITE_READ)
  @ApiOperation({
    operationId: 'listSiteQuestionSources',
    summary: 'List the documentation sources used to answer a question',
    description:
      'The pages its answers drew on, by weight (each answer shares 1 among its sources). ' +
      'Never a page that a condition hides from some visitors. Paginated.',
  })
  @ApiOkResponse({ type: PageOf(SiteQuestionAnswerSourceResponse) })
  @badRequest
  async questionSources(
    @Granted() access: SiteAccess,
    @Param('siteQuestionId') id: string,
    @Query() query: ListSiteQuestionSourcesQueryDto,
  ): Promise<Page<SiteQuestionAnswerSourceResponse>> {
    const page = await this.questions.questionSources(access.entity.site.id, id, query, query);
    return mapPage(page, (share) =>
      this.presenter.source(access.entity, share, { kind: 'questions', id }),
    );
  }

  @Get('question-stats')
  @Access('site', SITE_READ)
  @ApiOperation({
    operationId: 'getSiteQuestionStats',
    summary: 'Get aggregate Ask AI question statistics for a site',
    description:
      'Counts of the answers the filters keep and of their questions: by feedback, whether ' +
      `answered and channel, and per week of the last 13. ${KEPT}`,
  })
  @ApiOkResponse({ type: SiteQuestionStatsResponse })
  @badRequest
  async stats(
    @Granted() access: SiteAccess,
    @Query() query: SiteQuestionStatsQueryDto,
  ): Promise<SiteQuestionStatsResponse> {
    return this.presenter.stats(await this.questions.stats(access.entity.site.id, query));
  }

  @Get('answers')
  @Access('site', SITE_READ)
  @ApiOperation({
    operationId: 'listSiteQuestionAnswers',
    summary: "List the answers a site's Ask AI assistant generated",
    description:
      'Each ask of a question: the text as asked, whether answered, its channel, the ' +
      `visitor's anonymous ids when given, and its feedback; newest first, paginated. ${KEPT}`,
  })
  @ApiOkResponse({ type: PageOf(SiteQuestionAnswerResponse) })
  @badRequest
  async listAnswers(
    @Granted() access: SiteAccess,
    @Query() query: ListSiteQuestionAnswersQueryDto,
  ): Promise<Page<SiteQuestionAnswerResponse>> {
    const { 'question.type': type, ...filter } = query;
    const page = await this.questions.listAnswers(
      access.entity.site.id,
      { ...filter, type },
      query,
    );
    return mapPage(page, (answer) => this.presenter.answer(access.entity, answer));
  }

  @Get('answers/:siteQuestionAnswerId')
  @Access('site', SITE_READ)
  @ApiOperation({
    operationId: 'getSiteQuestionAnswerById',
    summary: 'Get a single Ask AI answer by ID',
    description:
      'The answer with the response the model wrote, as a document (no step when it wrote none).',
  })
  @ApiOkResponse({ type: SiteQuestionAnswerWithResponseResponse })
  async getAnswer(
    @Granted() access: SiteAccess,
    @Param('siteQuestionAnswerId') id: string,
  ): Promise<SiteQuestionAnswerWithResponseResponse> {
    const answer = await this.questions.answer(access.entity.site.id, id);
    return this.presenter.answerWithResponse(access.entity, answer);
  }

  @Get('answers/:siteQuestionAnswerId/thread')
  @Access('site', SITE_READ)
  @ApiOperation({
    operationId: 'getSiteQuestionAnswerThreadById',
    summary: 'Get the conversation thread for an Ask AI answer',
    description:
      'Each ask is a thread of its own in Bindery (`streamAskInSite` takes no previous ' +
      'answer): the thread is the answer alone.',
  })
  @ApiOkResponse({ type: [SiteQuestionAnswerWithResponseResponse] })
  async thread(
    @Granted() access: SiteAccess,
    @Param('siteQuestionAnswerId') id: string,
  ): Promise<SiteQuestionAnswerWithResponseResponse[]> {
    const answer = await this.questions.answer(access.entity.site.id, id);
    return [await this.presenter.answerWithResponse(access.entity, answer)];
  }

  @Get('answers/:siteQuestionAnswerId/sources')
  @Access('site', SITE_READ)
  @ApiOperation({
    operationId: 'listSiteQuestionAnswerSources',
    summary: 'List the documentation sources cited for an answer',
    description:
      'The pages the answer drew on, in the order the search ranked them, each of equal ' +
      'weight; never a page that a condition hides from some visitors. Paginated.',
  })
  @ApiOkResponse({ type: PageOf(SiteQuestionAnswerSourceResponse) })
  @badRequest
  async answerSources(
    @Granted() access: SiteAccess,
    @Param('siteQuestionAnswerId') id: string,
    @Query() query: PageQueryDto,
  ): Promise<Page<SiteQuestionAnswerSourceResponse>> {
    const page = await this.questions.answerSources(access.entity.site.id, id, query);
    return mapPage(page, (share) =>
      this.presenter.source(access.entity, share, { kind: 'answers', id }),
    );
  }
}
