import { Injectable, Logger } from '@nestjs/common';
import { documentToMarkdown } from '../../content-engine/documents/markdown';
import type { JSONDocument } from '../../content-engine/documents/document';
import { ContentReader } from '../../content-engine/reads/content-reader';
import type { Actor } from '../../platform/auth/actor';
import type { VisitorClaims } from '../../platform/conditions/evaluate';
import type { SiteTarget } from '../../sites/site-access.policy';
import type { AskInSiteDto } from '../dto/ask-in-site.dto';
import type {
  SearchAIAnswerSourcePageResponse,
  SearchAIAnswerStreamResponse,
} from '../dto/search-ai-answer.response';
import type { StoredAnswerSource } from './entities/site-question-answer.entity';
import { SiteQuestionsService } from './site-questions.service';

/** A visitor with no claims: a source is recorded only when such a visitor sees it. */
const ANY_VISITOR: VisitorClaims = { claims: { unsigned: {} } };

/**
 * Records each site ask once its stream has ended: the question, the answer as far as the model
 * wrote it (none when it failed, was cut off, or no model is configured), the pages it drew
 * from that every visitor sees, the channel, the visitor's anonymous ids when given and the
 * request id. Never the caller's identity, claims or token. A failure to record is logged and
 * leaves the answer as it is.
 */
@Injectable()
export class AskRecorder {
  private readonly logger = new Logger('AskRecorder');

  constructor(
    private readonly questions: SiteQuestionsService,
    private readonly reader: ContentReader,
  ) {}

  /** The events, as they come, recorded once they end (`noAnswer`: an answer not to keep). */
  recorded(
    target: SiteTarget,
    caller: Actor,
    body: AskInSiteDto,
    ask: { responseId: string; signal: AbortSignal; noAnswer: string },
    events: AsyncIterable<SearchAIAnswerStreamResponse>,
  ): AsyncIterable<SearchAIAnswerStreamResponse> {
    const record = (last: SearchAIAnswerStreamResponse | undefined, whole: boolean) =>
      this.record(target, caller, body, ask, last, whole);
    return (async function* () {
      let last: SearchAIAnswerStreamResponse | undefined;
      let whole = false;
      try {
        for await (const event of events) {
          last = event;
          yield event;
        }
        whole = !ask.signal.aborted;
      } finally {
        await record(last, whole);
      }
    })();
  }

  private async record(
    target: SiteTarget,
    caller: Actor,
    body: AskInSiteDto,
    ask: { responseId: string; noAnswer: string },
    last: SearchAIAnswerStreamResponse | undefined,
    whole: boolean,
  ): Promise<void> {
    try {
      const found = last?.answer.sources ?? [];
      const text = whole ? await answerText(last?.answer.answer) : undefined;
      await this.questions.record({
        siteId: target.site.id,
        question: body.question,
        answer:
          text === undefined || text.trim() === '' || text === ask.noAnswer ? undefined : text,
        found: found.length > 0,
        sources: await this.everyVisitorSees(found),
        channel: caller.kind === 'siteReader' ? 'site' : 'api',
        session: body.session
          ? { visitorId: body.session.visitorId, sessionId: body.session.sessionId }
          : undefined,
        responseId: ask.responseId,
      });
    } catch (error) {
      this.logger.warn({ err: error }, 'Could not record a question asked of a site');
    }
  }

  /** The sources a visitor without claims sees, with their titles: nothing a condition hides. */
  private async everyVisitorSees(
    sources: SearchAIAnswerSourcePageResponse[],
  ): Promise<StoredAnswerSource[]> {
    const kept: StoredAnswerSource[] = [];
    for (const source of sources) {
      const revision = await this.reader.readRevision(source.space, source.revision);
      if (!(await this.reader.hasPage(revision, source.page, ANY_VISITOR))) continue;
      const page = await this.reader.findPage(revision, source.page);
      kept.push({
        space: source.space,
        revision: source.revision,
        page: source.page,
        title: page?.node.meta.title ?? '',
      });
    }
    return kept;
  }
}

/** The answer's Markdown, from either format of the event. */
async function answerText(answer: object | undefined): Promise<string | undefined> {
  if (!answer) return undefined;
  if ('markdown' in answer && typeof answer.markdown === 'string') return answer.markdown;
  if ('document' in answer && answer.document) {
    return documentToMarkdown(answer.document as JSONDocument);
  }
  return undefined;
}
