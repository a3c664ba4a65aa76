import { Injectable, Logger } from '@nestjs/common';
import { documentToMarkdown, markdownToDocument } from '../content-engine/documents/markdown';
import { ContentReader, type PageTree } from '../content-engine/reads/content-reader';
import { AgentInstructionsService } from '../orgs/agent-instructions/agent-instructions.service';
import type { Organization } from '../orgs/entities/organization.entity';
import { ChatCompletions, type ChatMessage } from '../platform/ai/chat-completions';
import type { VisitorClaims } from '../platform/conditions/evaluate';
import { AppConfig } from '../platform/config/app-config';
import { DomainError } from '../platform/errors/domain-error';
import {
  answerMessages,
  questionOfLine,
  questionsFromTitles,
  recommendedQuestionMessages,
  splitAnswer,
} from './answer-prompt';
import type { AnswerFormat } from './dto/ask-in-site.dto';
import type {
  SearchAIAnswerResponse,
  SearchAIAnswerSourcePageResponse,
  SearchAIAnswerStreamResponse,
  SearchAIRecommendedQuestionStreamResponse,
} from './dto/search-ai-answer.response';
import { fitList, fitPrompt, promptChars } from './prompt-size';
import type { RetrievedPage } from './retrieval';
import type { AiFeature } from './usage/ai-usage.repository';
import { AnswerLimits } from './usage/answer-limits.service';

/** Pages whose text goes to the model. */
export const SOURCE_PAGES = 5;
/** Characters of a page's text given to the model. */
const PAGE_CHARS = 6000;
/** Recommended questions answered. */
const RECOMMENDED_QUESTIONS = 5;
/** Page titles the model chooses recommended questions from. */
const RECOMMENDATION_TITLES = 80;
/** A JSON-document answer is converted again at most this often while it streams. */
const DOCUMENT_EVERY_MS = 100;
/** Characters per token, to count a reply whose endpoint reports no usage. */
const CHARS_PER_TOKEN = 4;

export const NO_MODEL_ANSWER =
  'No model is configured to write answers on this server (AI_API_URL and AI_MODEL), so here ' +
  'are the pages that match the question.';

/** A page found for a question, read: its revision and its text as the model gets it. */
export interface ReadPage {
  page: RetrievedPage;
  revisionId: string;
  text: string;
}

/** What an answer is written from, and for whom. */
export interface AnswerRequest {
  organization: Organization;
  /** What the documentation is called in the prompt: the site's title, the organization's. */
  title: string;
  pages: ReadPage[];
  question: string;
  goal?: string;
  format: AnswerFormat;
  /** What its tokens are counted as. */
  feature: AiFeature;
  signal: AbortSignal;
}

/** What recommended questions are written from. */
export interface QuestionsRequest {
  organization: Organization;
  title: string;
  /** Titles of the pages the caller sees, in the order they are shown. */
  titles: string[];
  /** False when the caller's limits say the model may not be asked (AnswerLimits.suggestFor…). */
  useModel: boolean;
  signal: AbortSignal;
}

/**
 * Writes answers and recommended questions with the operator's model, for the site's and the
 * organization's ask alike: the pages' texts as their reader may read them, the prompt (cut to
 * AI_MAX_PROMPT_CHARS), the events as the model writes, the tokens counted against the
 * organization's budget. Retrieval and limits per caller are the callers'.
 */
@Injectable()
export class AnswerWriter {
  private readonly logger = new Logger('Answers');

  constructor(
    private readonly reader: ContentReader,
    private readonly chat: ChatCompletions,
    private readonly instructions: AgentInstructionsService,
    private readonly limits: AnswerLimits,
    private readonly config: AppConfig,
  ) {}

  /**
   * The events of an answer: first the sources with no answer yet, then the answer as far as
   * the model has written it, each time it writes more, the last with its follow-up questions.
   * Without a model, one event: the sources and NO_MODEL_ANSWER. The budget is checked before
   * anything is answered; a model that fails fails the iteration, after the first event.
   */
  async answer(request: AnswerRequest): Promise<AsyncIterable<SearchAIAnswerStreamResponse>> {
    const { format, signal } = request;
    const sources: SearchAIAnswerSourcePageResponse[] = request.pages.map(
      ({ page, revisionId }) => ({
        type: 'page',
        page: page.pageId,
        revision: revisionId,
        space: page.spaceId,
        sections: page.sections.map((section) => section.id),
      }),
    );
    const event = async (
      markdown: string | undefined,
      followupQuestions: string[],
    ): Promise<SearchAIAnswerStreamResponse> => {
      const answer: SearchAIAnswerResponse = { followupQuestions, sources };
      if (markdown !== undefined && markdown !== '') {
        answer.answer =
          format === 'markdown' ? { markdown } : { document: await markdownToDocument(markdown) };
      } else {
        answer.answer = {};
      }
      return { type: 'answer', answer };
    };
    if (!this.chat.configured) {
      return (async function* () {
        yield await event(NO_MODEL_ANSWER, []);
      })();
    }
    await this.limits.assertBudget(request.organization.id);
    const instructions = await this.instructionsOf(request.organization);
    const messages = fitPrompt(
      [...request.pages.map((page) => page.text), instructions],
      (parts) =>
        answerMessages({
          siteTitle: request.title,
          instructions: parts.at(-1)!,
          sources: request.pages.map(({ page }, i) => ({
            title: page.title,
            location: [page.spaceTitle, ...page.ancestors],
            text: parts[i],
          })),
          question: request.question,
          goal: request.goal,
        }),
      this.config.AI_MAX_PROMPT_CHARS,
    );
    const stream = this.metered(request.organization, request.feature, messages, signal);
    const logger = this.logger;
    return (async function* () {
      yield await event(undefined, []);
      let text = '';
      let sent = '';
      let sentAt = 0;
      try {
        for await (const piece of stream) {
          text += piece;
          const { markdown } = splitAnswer(text, false);
          if (markdown === sent) continue;
          // A document is parsed anew each time: while it streams, not for every token.
          if (format === 'document' && Date.now() - sentAt < DOCUMENT_EVERY_MS) continue;
          sent = markdown;
          sentAt = Date.now();
          yield await event(markdown, []);
        }
      } catch (error) {
        if (signal.aborted) return;
        logger.warn({ err: error }, 'The model failed to answer a question');
        throw modelFailed('answer', error);
      }
      const final = splitAnswer(text, true);
      yield await event(final.markdown, final.followupQuestions);
    })();
  }

  /**
   * Questions a reader may ask, each as soon as the model has written it, from the titles of
   * the pages the caller sees; without a model, with no page, beyond the caller's limits or once
   * the organization's budget is used, asked of the first of those titles (no model needed).
   */
  async questions(
    request: QuestionsRequest,
  ): Promise<AsyncIterable<SearchAIRecommendedQuestionStreamResponse>> {
    const { titles, signal } = request;
    if (
      !this.chat.configured ||
      titles.length === 0 ||
      !request.useModel ||
      !(await this.limits.budgetLeft(request.organization.id))
    ) {
      const questions = questionsFromTitles(titles, RECOMMENDED_QUESTIONS);
      return (async function* () {
        for (const question of questions) yield { question };
      })();
    }
    const instructions = await this.instructionsOf(request.organization);
    const messages = fitList(
      titles.slice(0, RECOMMENDATION_TITLES),
      (shown) =>
        recommendedQuestionMessages({
          siteTitle: request.title,
          instructions,
          titles: shown,
          count: RECOMMENDED_QUESTIONS,
        }),
      this.config.AI_MAX_PROMPT_CHARS,
    );
    const stream = this.metered(
      request.organization,
      'recommended-questions',
      messages,
      signal,
      0.3,
    );
    const logger = this.logger;
    return (async function* () {
      let pending = '';
      let count = 0;
      try {
        for await (const piece of stream) {
          pending += piece;
          const lines = pending.split(/\r\n|\r|\n/);
          pending = lines.pop()!;
          for (const line of lines) {
            const question = questionOfLine(line);
            if (question === undefined || count >= RECOMMENDED_QUESTIONS) continue;
            count++;
            yield { question };
          }
        }
      } catch (error) {
        if (signal.aborted) return;
        logger.warn({ err: error }, 'The model failed to recommend questions');
        throw modelFailed('suggest questions', error);
      }
      const last = questionOfLine(pending);
      if (last !== undefined && count < RECOMMENDED_QUESTIONS) yield { question: last };
    })();
  }

  /**
   * The text of each page found, as its reader may read it (a site reader's visitor: without
   * what it does not see), cut to PAGE_CHARS; a page the visitor does not see is left out, and
   * a page that cannot be read as text is given as the passages the search found.
   */
  async readPages(
    found: RetrievedPage[],
    revisions: ReadonlyMap<string, string>,
    visitor: VisitorClaims | undefined,
  ): Promise<ReadPage[]> {
    const read = await Promise.all(
      found.map(async (page) => {
        const revisionId = revisions.get(page.spaceId);
        if (!revisionId) return null;
        const revision = await this.reader.readRevision(page.spaceId, revisionId);
        if (!(await this.reader.hasPage(revision, page.pageId, visitor))) return null;
        const passages = page.sections
          .map((section) => `${section.title}\n${section.body}`)
          .join('\n\n');
        let text = passages;
        try {
          // The page's words for the model: written afresh, not kept byte for byte.
          const { body } = await this.reader.getPage(revision, page.pageId, 'markdown', {
            visitor,
            keepMarkdownSource: false,
          });
          if ('markdown' in body && body.markdown.trim() !== '') text = body.markdown;
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
        }
        return { page, revisionId, text: cut(text, PAGE_CHARS) };
      }),
    );
    return read.filter((entry) => entry !== null);
  }

  /**
   * The titles of the pages with content of a space's revision, in its order, but for those
   * in `unseen` (and what is under them).
   */
  async pageTitles(
    spaceId: string,
    revisionId: string,
    unseen: ReadonlySet<string> = new Set(),
  ): Promise<string[]> {
    const revision = await this.reader.readRevision(spaceId, revisionId);
    const titles: string[] = [];
    const visit = (trees: PageTree[]) => {
      for (const tree of trees) {
        if (unseen.has(tree.node.id)) continue;
        // An empty page (a new space's first) answers no question.
        if (tree.node.type === 'document' && tree.node.document && tree.node.meta.title) {
          titles.push(tree.node.meta.title);
        }
        visit(tree.pages);
      }
    };
    visit(await this.reader.listPages(revision));
    return titles;
  }

  /**
   * The model's reply to `messages`, piece by piece; once it ends (whole, failed or given up),
   * its tokens count against the organization's budget: as the endpoint reports them, else
   * estimated from the characters sent and received. A request that never got a reply counts
   * nothing.
   */
  private metered(
    organization: Organization,
    feature: AiFeature,
    messages: ChatMessage[],
    signal: AbortSignal,
    temperature?: number,
  ): AsyncIterable<string> {
    const chat = this.chat;
    const limits = this.limits;
    return (async function* () {
      let reported: number | undefined;
      let received = 0;
      try {
        for await (const piece of chat.stream(messages, {
          signal,
          temperature,
          onUsage: (usage) => (reported = usage.totalTokens),
        })) {
          received += piece.length;
          yield piece;
        }
      } finally {
        const tokens =
          reported ??
          (received > 0
            ? Math.ceil((promptChars(messages) + received) / CHARS_PER_TOKEN)
            : undefined);
        if (tokens !== undefined) await limits.record(organization.id, feature, tokens);
      }
    })();
  }

  /** The organization's agent instructions, as Markdown ('' when it has none). */
  private async instructionsOf(organization: Organization): Promise<string> {
    const { instructions } = await this.instructions.get(organization);
    return instructions.nodes.length === 0 ? '' : documentToMarkdown(instructions);
  }
}

/** 403 while the organization's `ai` is off: no answer, no suggestion. */
export function assertOrganizationAiOn(organization: Organization): void {
  if (!organization.ai) {
    throw new DomainError(
      'forbidden',
      'AIAnswersOff',
      'AI answers are turned off for this organization (its `ai` setting is false).',
    );
  }
}

function modelFailed(what: string, error: unknown): DomainError {
  return new DomainError(
    'unavailable',
    'AnswerModelFailed',
    `The model could not ${what}: ${(error as Error).message}`,
  );
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
