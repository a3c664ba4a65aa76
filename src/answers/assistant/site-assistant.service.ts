import { Injectable, Logger } from '@nestjs/common';
import { documentToMarkdown } from '../../content-engine/documents/markdown';
import type { JSONDocument } from '../../content-engine/documents/document';
import { ContentReader } from '../../content-engine/reads/content-reader';
import { AgentInstructionsService } from '../../orgs/agent-instructions/agent-instructions.service';
import type { Organization } from '../../orgs/entities/organization.entity';
import type { Actor } from '../../platform/auth/actor';
import type { ChatUsage } from '../../platform/ai/chat-completions';
import { AppConfig } from '../../platform/config/app-config';
import { DomainError, invalidInput } from '../../platform/errors/domain-error';
import { newId } from '../../platform/ids/ids';
import type { Site } from '../../sites/entities/site.entity';
import { readerVisitor } from '../../sites/published/site-reader-access';
import type { SiteSearchScope } from '../../sites/search/site-search-scope';
import { SiteSearchService } from '../../sites/search/site-search.service';
import type { SiteTarget } from '../../sites/site-access.policy';
import { answerMessages, splitAnswer } from '../answer-prompt';
import { AnswerWriter, NO_MODEL_ANSWER, type ReadPage, SOURCE_PAGES } from '../answer-writer';
import type { SearchAIAnswerSourcePageResponse } from '../dto/search-ai-answer.response';
import { promptChars } from '../prompt-size';
import { fusePages, RETRIEVED_PAGES, type RetrievedPage, tellingWords } from '../retrieval';
import { assertAiOn } from '../site-answers.service';
import { AnswerLimits } from '../usage/answer-limits.service';
import { AssistantConversations, type StoredConversation } from './assistant-conversations';
import {
  assistantSystemPrompt,
  READ_PAGE_TOOL,
  SEARCH_TOOL,
  SERVER_TOOLS,
} from './assistant-prompt';
import { DocumentStream } from './document-stream';
import type { AIResponseInSiteDto } from './dto/ai-response-in-site.dto';
import {
  type ToolCallRequest,
  ToolChat,
  type ToolChatMessage,
  ToolChatRefused,
  type ToolSpec,
} from './tool-chat';

/** One event of the stream: GitBook's `AIStreamResponse`. */
export type AIStreamEvent = { type: string; messageId: string } & Record<string, unknown>;

/** What a response drew on and wrote, for the record of the question (site questions). */
export interface AssistantOutcome {
  /** The response's id (its `response_finish`): what the renderer's thumbs up/down name. */
  responseId: string;
  question: string;
  /** The answer's Markdown; undefined when none was written (or the model failed). */
  answer?: string;
  sources: SearchAIAnswerSourcePageResponse[];
  /** It ended on a client tool's call: the answer is to come, in the next response. */
  pending: boolean;
  /** The follow-up questions the model wrote after its answer. */
  followups?: string[];
}

/** Requests to the model one response makes at most (the last is offered no tool). */
const MAX_STEPS = 5;
/** Characters of a page's text a search result gives the model. */
const RESULT_CHARS = 1500;
/** Characters of a message given as a document. */
const DOCUMENT_MESSAGE_CHARS = 8000;
/** A step's document is made again at most this often while its text streams. */
const DOCUMENT_EVERY_MS = 100;
const CHARS_PER_TOKEN = 4;
/** The search of the assistant: the site's default site spaces, as `searchSiteContent`'s. */
const SEARCH_SCOPE: SiteSearchScope = { mode: 'default', field: 'input' };
/** A page it reads: of any site space the caller sees. */
const READ_SCOPE: SiteSearchScope = { mode: 'all' };

/**
 * GitBook's site assistant (`streamAIResponseInSite`): a conversation answered by the
 * operator's model, which searches the site and reads its pages with tools, as the caller may
 * (the site search's spaces and hidden pages, pages read as the visitor reads them); with an
 * endpoint that takes no tools, the last question is answered from the pages its search finds,
 * as `streamAskInSite` answers. Conversations are kept for `previousResponseId`
 * (AssistantConversations); limits and the token budget are the ask's.
 */
@Injectable()
export class SiteAssistantService {
  private readonly logger = new Logger('SiteAssistant');

  constructor(
    private readonly search: SiteSearchService,
    private readonly writer: AnswerWriter,
    private readonly reader: ContentReader,
    private readonly chat: ToolChat,
    private readonly instructions: AgentInstructionsService,
    private readonly limits: AnswerLimits,
    private readonly conversations: AssistantConversations,
    private readonly config: AppConfig,
  ) {}

  /**
   * The events of a response, and its outcome once they have all been read. Checks (AI on, the
   * input, the limits and budget) are made before anything is answered.
   */
  async respond(
    target: SiteTarget,
    caller: Actor,
    body: AIResponseInSiteDto,
    signal: AbortSignal,
  ): Promise<{ events: AsyncIterable<AIStreamEvent>; outcome: () => AssistantOutcome }> {
    const { site, organization } = target;
    assertAiOn(organization, site, undefined);
    const owner = ownerOf(caller);
    const previous =
      body.previousResponseId === undefined
        ? undefined
        : await this.conversations.find(body.previousResponseId, site.id, owner);
    const input = await Promise.all(body.input.map((message, i) => messageOf(message, i)));
    if (body.toolCall && previous?.pending?.id !== body.toolCall.toolCallId) {
      throw invalidInput(
        'toolCall: no response waits for this tool call (previousResponseId names the response ' +
          'that called it, for an hour).',
      );
    }
    const lastUser = [...input].reverse().find((message) => message.role === 'user');
    if (!lastUser && !body.toolCall) {
      throw invalidInput('input: give a user message to answer (or a toolCall to continue).');
    }
    const question = lastUser?.content ?? previous!.question;
    if (lastUser) await this.limits.admitSiteAsk(site.id, caller, body.session?.visitorId);

    const messageId = newId();
    const responseId = newId();
    const outcome: AssistantOutcome = { responseId, question, sources: [], pending: false };
    const start: AIStreamEvent = { type: 'response_start', messageId };
    const finish = (): AIStreamEvent => ({
      type: 'response_finish',
      messageId,
      responseId,
      response: {
        id: responseId,
        ...(body.previousResponseId ? { previous: body.previousResponseId } : {}),
      },
    });

    if (!this.chat.configured) {
      const pages = await this.retrieve(site, caller, question);
      outcome.sources = sourcesOf(pages);
      const events = [
        start,
        { type: 'response_step_start', messageId, stepIndex: 0 },
        searchEvent(messageId, 0, question, pages),
        ...(await new DocumentStream().changes(NO_MODEL_ANSWER, true)).map((change) => ({
          type: 'response_document',
          messageId,
          stepIndex: 0,
          ...change,
        })),
        finish(),
      ];
      return {
        events: (async function* () {
          yield* events;
        })(),
        outcome: () => outcome,
      };
    }
    await this.limits.assertBudget(organization.id);

    // The conversation: what the previous response left, then the new messages.
    const history: ToolChatMessage[] = [...(previous?.messages ?? [])];
    if (body.toolCall) {
      history.push({
        role: 'tool',
        tool_call_id: body.toolCall.toolCallId,
        content: JSON.stringify(body.toolCall.output),
      });
    }
    history.push(...input);
    const instructions = await this.instructionsOf(organization);
    const system = assistantSystemPrompt({
      siteTitle: site.title,
      instructions,
      currentPage: await this.currentPageTitle(site, caller, body),
    });
    const clientTools: ToolSpec[] = (body.tools ?? [])
      .filter((tool) => !SERVER_TOOLS.some((own) => own.name === tool.name))
      .map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: tool.inputSchema ?? { type: 'object', properties: {} },
      }));
    const save = (conversation: Omit<StoredConversation, 'siteId' | 'owner' | 'question'>) =>
      this.conversations.save(responseId, { siteId: site.id, owner, question, ...conversation });
    const converse = (run: Parameters<SiteAssistantService['converse']>[0]) => this.converse(run);
    const logger = this.logger;
    return {
      outcome: () => outcome,
      events: (async function* () {
        yield start;
        try {
          yield* converse({
            site,
            organization,
            caller,
            messageId,
            system,
            instructions,
            history,
            clientTools,
            outcome,
            save,
            signal,
          });
        } catch (error) {
          if (error instanceof DomainError) throw error;
          if (signal.aborted) return;
          logger.warn({ err: error }, 'The model failed to answer in a conversation');
          throw new DomainError(
            'unavailable',
            'AnswerModelFailed',
            `The model could not answer: ${(error as Error).message}`,
          );
        }
        yield finish();
        if (outcome.followups?.length) {
          yield {
            type: 'response_followup_suggestion',
            messageId,
            suggestions: outcome.followups,
          };
        }
      })(),
    };
  }

  /**
   * The steps of a response: each a request to the model, its text and its tool calls, until
   * it answers without calling a tool, calls a client's tool, or MAX_STEPS. When the endpoint
   * refuses tools, the last question is answered from what its search finds (retrieval).
   */
  private async *converse(run: {
    site: Site;
    organization: Organization;
    caller: Actor;
    messageId: string;
    system: string;
    /** The organization's agent instructions, as Markdown. */
    instructions: string;
    history: ToolChatMessage[];
    clientTools: ToolSpec[];
    outcome: AssistantOutcome;
    save: (
      conversation: Omit<StoredConversation, 'siteId' | 'owner' | 'question'>,
    ) => Promise<void>;
    signal: AbortSignal;
  }): AsyncGenerator<AIStreamEvent> {
    const { messageId, history, outcome } = run;
    const sources = new Map<string, SearchAIAnswerSourcePageResponse>();
    const clientNames = new Set(run.clientTools.map((tool) => tool.name));
    for (let step = 0; step < MAX_STEPS; step++) {
      yield { type: 'response_step_start', messageId, stepIndex: step };
      const tools = step === MAX_STEPS - 1 ? [] : [...SERVER_TOOLS, ...run.clientTools];
      const messages = fitHistory(run.system, history, this.config.AI_MAX_PROMPT_CHARS);
      const reply = this.step(run.organization, messages, tools, messageId, step, run.signal);
      let result: StepResult;
      try {
        result = yield* reply;
      } catch (error) {
        if (!(error instanceof ToolChatRefused) || step > 0 || tools.length === 0) throw error;
        // An endpoint that takes no tools: the question answered from its search's pages.
        yield* this.retrievalAnswer(run, messageId);
        return;
      }
      if (result.toolCalls.length === 0) {
        const final = splitAnswer(result.text, true);
        history.push({ role: 'assistant', content: final.markdown });
        await run.save({ messages: history });
        outcome.answer = final.markdown;
        outcome.followups = final.followupQuestions;
        outcome.sources = [...sources.values()];
        return;
      }
      history.push({ role: 'assistant', content: result.text, tool_calls: result.toolCalls });
      let pending: ToolCallRequest | undefined;
      for (const call of result.toolCalls) {
        const name = call.function.name;
        if (clientNames.has(name) && !pending) {
          pending = call;
          continue;
        }
        const { output, event, found } = clientNames.has(name)
          ? { output: { error: 'Call one tool of the reader at a time.' } }
          : await this.runTool(run.site, run.caller, call);
        for (const page of found ?? []) sources.set(`${page.space}/${page.page}`, page);
        if (event)
          yield { type: 'response_tool_call', messageId, stepIndex: step, toolCall: event };
        history.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(output) });
      }
      if (pending) {
        yield {
          type: 'response_tool_call_pending',
          messageId,
          stepIndex: step,
          toolCall: { tool: pending.function.name, input: parseArguments(pending) },
          toolCallId: pending.id,
        };
        await run.save({
          messages: history,
          pending: { id: pending.id, tool: pending.function.name },
        });
        outcome.pending = true;
        outcome.sources = [...sources.values()];
        return;
      }
    }
  }

  /** One request to the model: its text streamed as `response_document` events of `step`. */
  private async *step(
    organization: Organization,
    messages: ToolChatMessage[],
    tools: ToolSpec[],
    messageId: string,
    step: number,
    signal: AbortSignal,
  ): AsyncGenerator<AIStreamEvent, StepResult> {
    const document = new DocumentStream();
    let text = '';
    let shown = '';
    let shownAt = 0;
    let toolCalls: ToolCallRequest[] = [];
    const documentEvents = async (markdown: string, final: boolean) =>
      (await document.changes(markdown, final)).map((change) => ({
        type: 'response_document',
        messageId,
        stepIndex: step,
        ...change,
      }));
    for await (const piece of this.metered(organization, messages, tools, signal)) {
      if ('toolCalls' in piece) {
        toolCalls = piece.toolCalls;
        continue;
      }
      text += piece.text;
      const { markdown } = splitAnswer(text, false);
      if (markdown === shown || Date.now() - shownAt < DOCUMENT_EVERY_MS) continue;
      shown = markdown;
      shownAt = Date.now();
      yield* await documentEvents(markdown, false);
    }
    yield* await documentEvents(splitAnswer(text, true).markdown, true);
    return { text, toolCalls };
  }

  /**
   * The answer without tools: the last question searched as `streamAskInSite` searches it, its
   * pages (as the caller reads them) given to the model with the conversation before it.
   */
  private async *retrievalAnswer(
    run: Parameters<SiteAssistantService['converse']>[0],
    messageId: string,
  ): AsyncGenerator<AIStreamEvent> {
    const { outcome } = run;
    const pages = await this.retrieve(run.site, run.caller, outcome.question);
    outcome.sources = sourcesOf(pages);
    yield searchEvent(messageId, 0, outcome.question, pages);
    const [system, ask] = answerMessages({
      siteTitle: run.site.title,
      instructions: run.instructions,
      sources: pages.map(({ page, text }) => ({
        title: page.title,
        location: [page.spaceTitle, ...page.ancestors],
        text,
      })),
      question: outcome.question,
    });
    const earlier = run.history
      .slice(0, -1)
      .filter(
        (message): message is ToolChatMessage & { role: 'user' | 'assistant' } =>
          (message.role === 'user' || message.role === 'assistant') &&
          message.content !== '' &&
          !('tool_calls' in message && message.tool_calls),
      )
      .map((message) => ({ role: message.role, content: message.content }));
    const messages = fitHistory(
      system.content,
      [...earlier, { role: 'user', content: ask.content }],
      this.config.AI_MAX_PROMPT_CHARS,
    );
    const result = yield* this.step(run.organization, messages, [], messageId, 0, run.signal);
    const final = splitAnswer(result.text, true);
    run.history.push({ role: 'assistant', content: final.markdown });
    await run.save({ messages: run.history });
    outcome.answer = final.markdown;
    outcome.followups = final.followupQuestions;
  }

  /** Runs a tool of the server: what the model is given, and what the stream shows of it. */
  private async runTool(
    site: Site,
    caller: Actor,
    call: ToolCallRequest,
  ): Promise<{ output: object; event?: object; found?: SearchAIAnswerSourcePageResponse[] }> {
    const args = parseArguments(call);
    if (call.function.name === SEARCH_TOOL) {
      const query = typeof args.query === 'string' ? args.query.trim().slice(0, 512) : '';
      if (query === '') return { output: { error: 'Give a query to search for.' } };
      const pages = await this.retrieve(site, caller, query);
      return {
        output: {
          results: pages.map(({ page, text }) => ({
            spaceId: page.spaceId,
            pageId: page.pageId,
            title: page.title,
            location: [page.spaceTitle, ...page.ancestors].join(' › '),
            text: text.length > RESULT_CHARS ? `${text.slice(0, RESULT_CHARS)}…` : text,
          })),
        },
        event: searchEvent('', 0, query, pages).toolCall as object,
        found: sourcesOf(pages),
      };
    }
    if (call.function.name === READ_PAGE_TOOL) {
      const spaceId = typeof args.spaceId === 'string' ? args.spaceId : '';
      const pageId = typeof args.pageId === 'string' ? args.pageId : '';
      const read = await this.readPage(site, caller, spaceId, pageId);
      if (!read) return { output: { error: 'No such page in this documentation.' } };
      return {
        output: { title: read.page.page.title, text: read.page.text },
        event: {
          tool: 'getPageContent',
          spaceId,
          revisionId: read.page.revisionId,
          page: { id: pageId, type: read.type, title: read.page.page.title, path: read.path },
        },
        found: sourcesOf([read.page]),
      };
    }
    return { output: { error: `There is no tool ${call.function.name}.` } };
  }

  /** The pages found for `query` as the ask finds them, read as the caller may read them. */
  private async retrieve(site: Site, caller: Actor, query: string): Promise<ReadPage[]> {
    const runs = await this.search.retrieve(
      site,
      caller,
      SEARCH_SCOPE,
      query,
      tellingWords(query),
      RETRIEVED_PAGES,
    );
    const visitor = caller.kind === 'siteReader' ? readerVisitor(caller) : undefined;
    return this.writer.readPages(fusePages(runs.results, SOURCE_PAGES), runs.revisions, visitor);
  }

  /**
   * A page of a site space the caller sees, read as it may read it; undefined for a page not
   * there or hidden from its visitor.
   */
  private async readPage(
    site: Site,
    caller: Actor,
    spaceId: string,
    pageId: string,
  ): Promise<{ page: ReadPage; type: string; path?: string } | undefined> {
    const { revisions, hidden } = await this.search.scopedSpaces(site, caller, READ_SCOPE);
    const revisionId = revisions.get(spaceId);
    if (!revisionId || pageId === '' || hidden?.get(spaceId)?.includes(pageId)) return undefined;
    const revision = await this.reader.readRevision(spaceId, revisionId);
    const location = await this.reader.locatePage(revision, { id: pageId });
    const tree = await this.reader.findPage(revision, pageId);
    if (!location || !tree) return undefined;
    const retrieved: RetrievedPage = {
      spaceId,
      spaceTitle: '',
      pageId,
      title: tree.node.meta.title ?? '',
      ancestors: [],
      sections: [],
      score: 0,
    };
    const visitor = caller.kind === 'siteReader' ? readerVisitor(caller) : undefined;
    const [page] = await this.writer.readPages([retrieved], revisions, visitor);
    return page ? { page, type: location.type, path: location.path ?? undefined } : undefined;
  }

  /** The title of the page the last message was written from, when the caller may read it. */
  private async currentPageTitle(
    site: Site,
    caller: Actor,
    body: AIResponseInSiteDto,
  ): Promise<string | undefined> {
    const location = [...body.input].reverse().find((message) => message.context?.location)
      ?.context?.location;
    if (!location) return undefined;
    const read = await this.readPage(site, caller, location.spaceId, location.pageId);
    return read?.page.page.title || undefined;
  }

  /**
   * The model's reply, piece by piece; once it ends, its tokens count against the
   * organization's budget (as reported, else 4 characters a token), as the ask's do.
   */
  private async *metered(
    organization: Organization,
    messages: ToolChatMessage[],
    tools: ToolSpec[],
    signal: AbortSignal,
  ): AsyncGenerator<{ text: string } | { toolCalls: ToolCallRequest[] }> {
    let reported: number | undefined;
    let received = 0;
    try {
      for await (const piece of this.chat.stream(messages, {
        tools,
        signal,
        onUsage: (usage: ChatUsage) => (reported = usage.totalTokens),
      })) {
        received += 'text' in piece ? piece.text.length : JSON.stringify(piece).length;
        yield piece;
      }
    } finally {
      const sent = promptChars(messages.map((m) => ({ role: 'user', content: m.content })));
      const tokens =
        reported ?? (received > 0 ? Math.ceil((sent + received) / CHARS_PER_TOKEN) : undefined);
      if (tokens !== undefined) await this.limits.record(organization.id, 'site-ask', tokens);
    }
  }

  private async instructionsOf(organization: Organization): Promise<string> {
    const { instructions } = await this.instructions.get(organization);
    return instructions.nodes.length === 0 ? '' : documentToMarkdown(instructions);
  }
}

interface StepResult {
  text: string;
  toolCalls: ToolCallRequest[];
}

/** Who may continue a conversation: a member's user, or the site's token (its claims). */
function ownerOf(caller: Actor): string {
  if (caller.kind === 'user') return `user:${caller.userId}`;
  return `token:${'tokenHash' in caller ? caller.tokenHash : ''}`;
}

/** A message of the input as the model reads it: its text, or its document's Markdown. */
async function messageOf(
  message: AIResponseInSiteDto['input'][number],
  index: number,
): Promise<ToolChatMessage & { role: 'user' | 'assistant' }> {
  const role = message.role === 'assistant' ? 'assistant' : 'user';
  const { content } = message;
  let text: string;
  if (typeof content === 'string') {
    if (content.length > 2048) {
      throw invalidInput(`input[${index}].content must be 2048 characters at most.`);
    }
    text = content.trim();
  } else if (
    content !== null &&
    typeof content === 'object' &&
    content.object === 'document' &&
    Array.isArray(content.nodes)
  ) {
    try {
      text = (await documentToMarkdown({ data: {}, ...content } as JSONDocument)).trim();
    } catch {
      throw invalidInput(`input[${index}].content is not a document Bindery can read.`);
    }
    text = text.slice(0, DOCUMENT_MESSAGE_CHARS);
  } else {
    throw invalidInput(`input[${index}].content must be a string or a JSON document.`);
  }
  if (text === '') throw invalidInput(`input[${index}].content is empty.`);
  return { role, content: text };
}

function parseArguments(call: ToolCallRequest): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(call.function.arguments || '{}');
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function sourcesOf(pages: ReadPage[]): SearchAIAnswerSourcePageResponse[] {
  return pages.map(({ page, revisionId }) => ({
    type: 'page',
    page: page.pageId,
    revision: revisionId,
    space: page.spaceId,
    sections: page.sections.map((section) => section.id),
  }));
}

/** GitBook's `response_tool_call` of a search (`AIToolCallSearch`), its results the pages. */
function searchEvent(
  messageId: string,
  stepIndex: number,
  query: string,
  pages: ReadPage[],
): AIStreamEvent {
  return {
    type: 'response_tool_call',
    messageId,
    stepIndex,
    toolCall: {
      tool: 'search',
      query,
      results: pages.map(({ page, revisionId }) => ({
        type: 'page',
        spaceId: page.spaceId,
        pageId: page.pageId,
        revisionId,
        title: page.title,
        ...(page.ancestors.length > 0 || page.spaceTitle
          ? { description: [page.spaceTitle, ...page.ancestors].filter(Boolean).join(' › ') }
          : {}),
      })),
    },
  };
}

/**
 * The system message and as much of the conversation as fits AI_MAX_PROMPT_CHARS: its oldest
 * turns are left out first (a tool's result with the call it answers), never the last message.
 */
function fitHistory(
  system: string,
  history: ToolChatMessage[],
  maxChars: number,
): ToolChatMessage[] {
  let kept = history;
  const size = (messages: ToolChatMessage[]) =>
    system.length + messages.reduce((sum, message) => sum + message.content.length + 20, 0);
  while (kept.length > 1 && size(kept) > maxChars) {
    kept = kept.slice(1);
    // A conversation never starts with a tool's result or its call's answer.
    while (kept.length > 1 && kept[0].role !== 'user') kept = kept.slice(1);
  }
  return [{ role: 'system', content: system }, ...kept];
}
