import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import { SITE_READ } from '../../sites/site-access';
import type { SiteAccess } from '../../sites/site-access.policy';
import {
  AGENT_FEEDBACK_SUBJECT_TYPES,
  SubmitAgentFeedbackDto,
  SubmitSiteAgentFeedbackDto,
} from './dto/agent-feedback.dto';
import { AgentFeedbackResultResponse } from './dto/site-question.response';
import { SiteQuestionsService } from './site-questions.service';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid feedback.' });
const WHO =
  'Members who read the site, and a site’s token for its own site (as they may ask it). Kept ' +
  'AI_QUESTIONS_RETENTION_DAYS; read by no operation yet.';

/** Feedback agents give a site: recorded as given, never anything of the user they act for. */
@Controller('orgs/:organizationId/sites/:siteId')
@ApiExtraModels(...AGENT_FEEDBACK_SUBJECT_TYPES)
export class SiteAgentFeedbackController {
  constructor(private readonly questions: SiteQuestionsService) {}

  @Post('agents/feedback')
  @Access('site', SITE_READ, { siteReaders: true })
  @ApiOperation({
    operationId: 'submitAgentFeedbackToSite',
    summary: 'Submit agent feedback',
    description:
      'Records the feedback as given. When `reportedBy.correlationId` is the `X-Request-Id` of ' +
      'an ask of this site (the answer’s `responseId`), the feedback is about that answer: it ' +
      `is rated -1 (its \`feedback\`). ${WHO}`,
  })
  @ApiCreatedResponse({ type: AgentFeedbackResultResponse })
  @badRequest
  async submit(
    @Granted() access: SiteAccess,
    @Body() body: SubmitAgentFeedbackDto,
  ): Promise<AgentFeedbackResultResponse> {
    const { feedback, answer } = await this.questions.submitAgentFeedback(
      access.entity.site.id,
      body,
    );
    return {
      id: feedback.id,
      result: answer
        ? 'Thank you: the feedback is recorded with the answer it is about, for the site’s authors.'
        : 'Thank you: the feedback is recorded for the site’s authors.',
    };
  }

  @Post('agent-feedback')
  @HttpCode(204)
  @Access('site', SITE_READ, { siteReaders: true })
  @ApiOperation({
    operationId: 'submitSiteAgentFeedback',
    summary:
      'Submit agent feedback for a site. (Deprecated) use submitAgentFeedbackToSite instead.',
    deprecated: true,
    description:
      'Feedback on the content of the site (a page that is outdated, wrong or missing ' +
      `something), recorded as given. ${WHO}`,
  })
  @ApiNoContentResponse({ description: 'Feedback submitted.' })
  @badRequest
  async submitSiteContent(
    @Granted() access: SiteAccess,
    @Body() body: SubmitSiteAgentFeedbackDto,
  ): Promise<void> {
    await this.questions.submitSiteContentFeedback(access.entity.site.id, body);
  }
}
