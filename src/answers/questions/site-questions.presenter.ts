import { Injectable } from '@nestjs/common';
import { markdownToDocument } from '../../content-engine/documents/markdown';
import { UrlBuilder } from '../../platform/urls/url-builder';
import type { SiteTarget } from '../../sites/site-access.policy';
import type {
  SiteQuestionAnswerResponse,
  SiteQuestionAnswerSourceResponse,
  SiteQuestionAnswerWithResponseResponse,
  SiteQuestionResponse,
  SiteQuestionStatsResponse,
} from './dto/site-question.response';
import type { SiteQuestionAnswer } from './entities/site-question-answer.entity';
import {
  questionKey,
  type AnswerCounts,
  type QuestionWithCounts,
} from './site-questions.repository';
import type { SourceShare } from './site-questions.service';

/** GitBook's site question shapes, from what Bindery keeps of the asks. */
@Injectable()
export class SiteQuestionsPresenter {
  constructor(private readonly urls: UrlBuilder) {}

  stats(counts: AnswerCounts): SiteQuestionStatsResponse {
    const channelTypes: Record<string, number> = {};
    if (counts.site > 0) channelTypes.site = counts.site;
    if (counts.api > 0) channelTypes.api = counts.api;
    return {
      total: counts.questions,
      answers: counts.answers,
      feedback: { positive: counts.positive, negative: counts.negative, unrated: counts.unrated },
      answered: { yes: counts.yes, partially: 0, no: counts.no },
      relevance: { relevant: counts.answers, spam: 0, 'off-topic': 0, unclear: 0 },
      types: {
        exploring: 0,
        'how-to': 0,
        troubleshooting: 0,
        reference: 0,
        unknown: counts.answers,
      },
      channelTypes,
      channels: {},
      weeklyPulse: counts.weeklyPulse,
    };
  }

  question(target: SiteTarget, { question, counts }: QuestionWithCounts): SiteQuestionResponse {
    return {
      object: 'site-question',
      id: question.id,
      question: question.question,
      type: 'unknown',
      createdAt: question.createdAt.toISOString(),
      askedAt: question.askedAt.toISOString(),
      // A question's stats count its answers; it is one question.
      stats: this.stats({ ...counts, questions: counts.answers > 0 ? 1 : 0 }),
      urls: { location: this.location(target, 'questions', question.id) },
    };
  }

  source(
    target: SiteTarget,
    share: SourceShare,
    owner: { kind: 'questions' | 'answers'; id: string },
  ): SiteQuestionAnswerSourceResponse {
    return {
      object: 'site-question-answer-source',
      id: `${share.space}/${share.page}`,
      type: 'page',
      space: share.space,
      revision: share.revision,
      page: share.page,
      title: share.title,
      weight: Math.round(share.weight * 1e6) / 1e6,
      urls: { location: this.location(target, owner.kind, owner.id, 'sources') },
    };
  }

  answer(target: SiteTarget, answer: SiteQuestionAnswer): SiteQuestionAnswerResponse {
    const rated = answer.rating === 1 || answer.rating === -1;
    return {
      object: 'site-question-answer',
      id: answer.id,
      question: { id: answer.questionId, type: 'unknown' },
      topics: [],
      input: { text: questionKey(answer.question), raw: answer.question },
      ...(answer.visitorId !== null && answer.sessionId !== null
        ? { session: { visitorId: answer.visitorId, sessionId: answer.sessionId } }
        : {}),
      ...(rated ? { feedback: { rating: answer.rating as -1 | 1 } } : {}),
      responseId: answer.responseId,
      language: 'und',
      answered: answer.answered,
      helpfulness:
        answer.rating === 1
          ? 'high'
          : answer.rating === -1 || answer.answered === 'no'
            ? 'low'
            : 'medium',
      relevance: 'relevant',
      channel: { type: answer.channel },
      createdAt: answer.createdAt.toISOString(),
      updatedAt: answer.updatedAt.toISOString(),
      urls: { location: this.location(target, 'answers', answer.id) },
    };
  }

  /** The answer with the model's response: one step holding the answer as a document. */
  async answerWithResponse(
    target: SiteTarget,
    answer: SiteQuestionAnswer,
  ): Promise<SiteQuestionAnswerWithResponseResponse> {
    const steps =
      answer.answer === null ? [] : [{ content: await markdownToDocument(answer.answer) }];
    return {
      ...this.answer(target, answer),
      response: {
        id: answer.id,
        role: 'assistant',
        steps,
        createdAt: answer.createdAt.toISOString(),
      },
    };
  }

  private location(target: SiteTarget, ...segments: string[]): string {
    return this.urls.api('orgs', target.organization.id, 'sites', target.site.id, ...segments);
  }
}
