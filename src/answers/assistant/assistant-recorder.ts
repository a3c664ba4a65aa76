import { Injectable } from '@nestjs/common';
import type { Actor } from '../../platform/auth/actor';
import type { SiteTarget } from '../../sites/site-access.policy';
import { NO_MODEL_ANSWER } from '../answer-writer';
import type { AskInSiteDto } from '../dto/ask-in-site.dto';
import type { SearchAIAnswerStreamResponse } from '../dto/search-ai-answer.response';
import { AskRecorder } from '../questions/ask-recorder';
import type { AIResponseInSiteDto } from './dto/ai-response-in-site.dto';
import type { AIStreamEvent, AssistantOutcome } from './site-assistant.service';

/** The longest question the site questions keep. */
const QUESTION_CHARS = 512;

/**
 * Records each question the assistant answered as a site ask is recorded (AskRecorder): the
 * question, the answer (none when the model failed, the client went away or no model is
 * configured), the pages it drew on that every visitor sees, the channel, session and response
 * id (the one the renderer's thumbs up/down rate). A response that ends on a client tool's
 * call is recorded with the one that continues it.
 */
@Injectable()
export class AssistantRecorder {
  constructor(private readonly asks: AskRecorder) {}

  recorded(
    target: SiteTarget,
    caller: Actor,
    body: AIResponseInSiteDto,
    ask: { signal: AbortSignal },
    events: AsyncIterable<AIStreamEvent>,
    outcome: () => AssistantOutcome,
  ): AsyncIterable<AIStreamEvent> {
    const asks = this.asks;
    return (async function* () {
      let whole = false;
      try {
        yield* events;
        whole = !ask.signal.aborted;
      } finally {
        const result = outcome();
        if (!result.pending) {
          const answer: SearchAIAnswerStreamResponse = {
            type: 'answer',
            answer: {
              answer: whole && result.answer ? { markdown: result.answer } : {},
              followupQuestions: result.followups ?? [],
              sources: result.sources,
            },
          };
          const asked = {
            question: result.question.slice(0, QUESTION_CHARS),
            session: body.session,
          } as AskInSiteDto;
          const recorded = asks.recorded(
            target,
            caller,
            asked,
            { responseId: result.responseId, signal: ask.signal, noAnswer: NO_MODEL_ANSWER },
            (async function* () {
              yield answer;
            })(),
          );
          for await (const _ of recorded) void _;
        }
      }
    })();
  }
}
