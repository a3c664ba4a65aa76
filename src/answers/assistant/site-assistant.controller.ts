import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOperation } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Access, CurrentActor, Granted } from '../../platform/auth/access.decorator';
import type { Actor } from '../../platform/auth/actor';
import { ErrorBody } from '../../platform/errors/error-body';
import { clientGone, sendEventStream } from '../../platform/http/event-stream';
import { SITE_READ } from '../../sites/site-access';
import type { SiteAccess } from '../../sites/site-access.policy';
import { ApiEventStream, STREAM } from '../answer-docs';
import { AssistantRecorder } from './assistant-recorder';
import { AIResponseInSiteDto } from './dto/ai-response-in-site.dto';
import { AIStreamResponse } from './dto/ai-stream.response';
import { SiteAssistantService } from './site-assistant.service';

/** GitBook's site assistant: a conversation about a site, answered from what the caller may read. */
@Controller('orgs/:organizationId/sites/:siteId/ai/response')
export class SiteAssistantController {
  constructor(
    private readonly assistant: SiteAssistantService,
    private readonly recorder: AssistantRecorder,
  ) {}

  @Post()
  @HttpCode(200)
  @Access('site', SITE_READ, { param: 'siteId', siteReaders: true, reads: true })
  @ApiOperation({
    operationId: 'streamAIResponseInSite',
    summary: 'Generate an AI response in a site',
    description:
      'The answer to the last user message of a conversation (the `input`, after the response ' +
      '`previousResponseId` names, kept an hour), written by the model configured with ' +
      '`AI_API_URL`. The model searches the site and reads its pages with tools, as the caller ' +
      'may read them (a site’s token: only what its visitor sees); each search and page read is ' +
      'a `response_tool_call` event, the text `response_document` events, then ' +
      '`response_finish` (its `response.id` continues the conversation) and the follow-up ' +
      '`response_followup_suggestion`. A call of one of the client’s `tools` ends the response ' +
      'with `response_tool_call_pending`; its result continues it (`toolCall`). When the ' +
      'endpoint takes no tools, the last question is answered from the pages its search finds. ' +
      'Without a model: the pages found and an answer saying no model is configured. Each ' +
      'answered question is recorded (`listSiteQuestions`). ' +
      `${STREAM} 403 when AI is off: the organization’s \`ai\` is false, or the site’s ` +
      '`ai.mode` is `none`.',
  })
  @ApiEventStream(AIStreamResponse)
  @ApiBadRequestResponse({
    type: ErrorBody,
    description:
      'Invalid `input` (no user message, an empty or too long one), `toolCall` that no response ' +
      'waits for, or another invalid field.',
  })
  async respond(
    @CurrentActor() actor: Actor,
    @Granted() access: SiteAccess,
    @Body() body: AIResponseInSiteDto,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const signal = clientGone(response);
    const { events, outcome } = await this.assistant.respond(access.entity, actor, body, signal);
    // Recorded once the stream ends (site questions), under the response's id.
    const ask = { signal };
    await sendEventStream(
      request,
      response,
      this.recorder.recorded(access.entity, actor, body, ask, events, outcome),
    );
  }
}
