import { Injectable, Logger } from '@nestjs/common';
import { ChatCompletions } from '../../platform/ai/chat-completions';
import { Embeddings } from '../../platform/ai/embeddings';
import type { ConversationPart } from '../entities/conversation.entity';
import { type ExtractedIssue, truncate } from './issue-extraction';

/** Characters of a conversation sent to the model. */
const PROMPT_CHARS = 12_000;
const TITLES_PER_CLUSTER = 20;

const EXTRACT_PROMPT = `You read a support conversation between a user and a documentation team.
List the issues the user raised: something they could not do, something that went wrong, or a
question they asked. Several distinct issues are several items; thanks or small talk only is none.
Reply with JSON only: {"issues": [{"title": "...", "summary": "..."}]}. A title names the problem
in at most 12 words; a summary says in one or two sentences what the user could not do or asked.`;

const LABEL_PROMPT = `You name a group of similar support issues. Reply with JSON only:
{"label": "...", "summary": "..."}. The label names the shared problem in at most 8 words; the
summary says in one to three sentences what users could not do or asked about.`;

/**
 * The optional AI side of the analysis, through the shared OpenAI-compatible clients: better
 * issue titles and summaries, cluster labels, and issue embeddings. Every answer is checked;
 * anything unusable (no endpoint, an error, a malformed reply) is `undefined`, and the caller
 * keeps the deterministic result, so an AI outage never stops the analysis.
 */
@Injectable()
export class AiAnalysis {
  private readonly logger = new Logger('ConversationAnalysisAI');

  constructor(
    private readonly chat: ChatCompletions,
    private readonly embeddings: Embeddings,
  ) {}

  get enabled(): boolean {
    return this.chat.configured;
  }

  /** The embedding model when one is configured (AI_EMBEDDING_MODEL). */
  get embeddingModel(): string | undefined {
    return this.embeddings.configured ? this.embeddings.model : undefined;
  }

  /**
   * One vector per text, rounded to single precision (as `real[]` stores them, so a stored vector
   * reads back as the one clustered when it was made); undefined when none is configured or the
   * endpoint fails after its retries.
   */
  async embed(texts: string[]): Promise<number[][] | undefined> {
    if (!this.embeddings.configured || texts.length === 0) return undefined;
    try {
      const vectors = await this.embeddings.embed(texts);
      return vectors.map((vector) => vector.map((value) => Math.fround(value)));
    } catch (error) {
      this.logger.warn({ err: error }, 'Embeddings failed; clustering by TF-IDF for now');
      return undefined;
    }
  }

  async extractIssues(conversation: {
    subject: string | null;
    parts: ConversationPart[];
  }): Promise<ExtractedIssue[] | undefined> {
    if (!this.enabled) return undefined;
    const text = [
      ...(conversation.subject ? [`Subject: ${conversation.subject}`] : []),
      ...conversation.parts.map((part) => `${part.role}: ${part.body}`),
    ]
      .join('\n\n')
      .slice(0, PROMPT_CHARS);
    const reply = await this.ask(EXTRACT_PROMPT, text);
    const issues = (reply as { issues?: unknown } | undefined)?.issues;
    if (!Array.isArray(issues)) return undefined;
    const valid = issues.filter(
      (issue): issue is ExtractedIssue =>
        typeof (issue as ExtractedIssue)?.title === 'string' &&
        typeof (issue as ExtractedIssue)?.summary === 'string' &&
        (issue as ExtractedIssue).title.trim().length > 0,
    );
    if (valid.length !== issues.length) return undefined;
    return valid.slice(0, 10).map((issue) => ({
      title: truncate(issue.title.trim(), 120),
      summary: truncate(issue.summary.trim(), 600),
    }));
  }

  async describeCluster(titles: string[]): Promise<{ label: string; summary: string } | undefined> {
    if (!this.enabled) return undefined;
    const reply = (await this.ask(
      LABEL_PROMPT,
      titles
        .slice(0, TITLES_PER_CLUSTER)
        .map((title) => `- ${title}`)
        .join('\n'),
    )) as { label?: unknown; summary?: unknown } | undefined;
    if (typeof reply?.label !== 'string' || typeof reply.summary !== 'string') return undefined;
    if (reply.label.trim().length === 0) return undefined;
    return {
      label: truncate(reply.label.trim(), 120),
      summary: truncate(reply.summary.trim(), 1000),
    };
  }

  private async ask(system: string, user: string): Promise<unknown> {
    try {
      const reply = await this.chat.complete(
        [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
        { json: true },
      );
      return JSON.parse(reply) as unknown;
    } catch (error) {
      this.logger.warn({ err: error }, 'AI analysis failed; keeping the deterministic result');
      return undefined;
    }
  }
}
