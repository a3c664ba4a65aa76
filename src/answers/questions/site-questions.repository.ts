import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { pulseOf, pulseWindow, weekIndexSql } from '../../conversations/weekly-pulse';
import { newId } from '../../platform/ids/ids';
import type { AnswerRating } from '../../sites/insights/site-insights.service';
import { countRows, paginate } from '../../platform/pagination/keyset';
import type { Page } from '../../platform/pagination/page';
import type {
  ChannelType,
  Helpfulness,
  QuestionSort,
  Relevance,
  Resolution,
} from './dto/site-question-queries.dto';
import type { SubmitAgentFeedbackDto, SubmitSiteAgentFeedbackDto } from './dto/agent-feedback.dto';
import { SiteAgentFeedback } from './entities/site-agent-feedback.entity';
import {
  type AnswerChannel,
  type AnswerResolution,
  SiteQuestionAnswer,
  type StoredAnswerSource,
} from './entities/site-question-answer.entity';
import { SiteQuestion } from './entities/site-question.entity';

/** What an ask leaves behind, recorded once its stream has ended. */
export interface AskRecord {
  siteId: string;
  question: string;
  /** The answer's Markdown; undefined when the model wrote none. */
  answer?: string;
  /** Whether any page was found for the question. */
  found: boolean;
  /** The pages drawn from that any visitor sees (never one hidden by a condition). */
  sources: StoredAnswerSource[];
  channel: AnswerChannel;
  session?: { visitorId: string; sessionId: string };
  responseId: string;
}

/** Which answers count: GitBook's filters of its question operations. */
export interface AnswerFilter {
  from?: string;
  to?: string;
  relevance?: Relevance[];
  channelType?: ChannelType[];
  answered?: Resolution[];
  topic?: string[] | string;
  type?: string;
  language?: string;
  helpfulness?: Helpfulness;
  question?: string;
  thread?: string;
}

/** Counts of a set of answers (GitBook's `SiteQuestionStats`, before presenting). */
export interface AnswerCounts {
  questions: number;
  answers: number;
  positive: number;
  negative: number;
  unrated: number;
  yes: number;
  no: number;
  site: number;
  api: number;
  weeklyPulse: number[];
}

export interface QuestionWithCounts {
  question: SiteQuestion;
  counts: AnswerCounts;
}

/** What `helpfulness` stands for, Bindery assessing nothing: the rating, else whether answered. */
const HELPFULNESS_SQL =
  `CASE WHEN a.rating = 1 THEN 'high' WHEN a.rating = -1 OR a.answered = 'no' ` +
  `THEN 'low' ELSE 'medium' END`;

const COUNTS_SQL = [
  'count(DISTINCT a.question_id) AS questions',
  'count(*) AS answers',
  'count(*) FILTER (WHERE a.rating = 1) AS positive',
  'count(*) FILTER (WHERE a.rating = -1) AS negative',
  'count(*) FILTER (WHERE a.rating IS NULL) AS unrated',
  `count(*) FILTER (WHERE a.answered = 'yes') AS yes`,
  `count(*) FILTER (WHERE a.answered = 'no') AS no`,
  `count(*) FILTER (WHERE a.channel = 'site') AS site`,
  `count(*) FILTER (WHERE a.channel = 'api') AS api`,
];

type CountsRow = Record<
  'questions' | 'answers' | 'positive' | 'negative' | 'unrated' | 'yes' | 'no' | 'site' | 'api',
  string
>;

/** The question's text as questions are told apart: case, spacing and end punctuation aside. */
export function questionKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/gu, ' ')
    .replace(/[\s?!.。？！…]+$/u, '')
    .trim()
    .slice(0, 600);
}

/**
 * The tables of site questions: asks recorded, read back filtered and counted (GitBook's
 * filters), agents' feedback, and the deletion of what is past its retention.
 */
@Injectable()
export class SiteQuestionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Records an ask: its question (new, or asked again) and this answer, in one transaction. */
  async insertAsk(ask: AskRecord, now: Date): Promise<void> {
    const text = ask.question.slice(0, 512);
    await this.dataSource.transaction(async (manager) => {
      const rows: { id: string }[] = await manager.query(
        `INSERT INTO "site_questions" ("id", "site_id", "question_key", "question", "created_at", "asked_at")
         VALUES ($1, $2, $3, $4, $5, $5)
         ON CONFLICT ("site_id", "question_key")
           DO UPDATE SET "asked_at" = GREATEST("site_questions"."asked_at", EXCLUDED."asked_at")
         RETURNING "id"`,
        [newId(), ask.siteId, questionKey(text), text, now],
      );
      const answered: AnswerResolution = ask.found && ask.answer ? 'yes' : 'no';
      await manager.insert(SiteQuestionAnswer, {
        id: newId(),
        siteId: ask.siteId,
        questionId: rows[0].id,
        question: text,
        answer: ask.answer ?? null,
        sources: ask.sources,
        answered,
        channel: ask.channel,
        visitorId: ask.session?.visitorId ?? null,
        sessionId: ask.session?.sessionId ?? null,
        responseId: ask.responseId.slice(0, 128),
        rating: null,
        createdAt: now,
        updatedAt: now,
      });
    });
  }

  /** The site's questions with at least one answer the filter counts, each with its counts. */
  async listQuestions(
    siteId: string,
    filter: AnswerFilter,
    query: { page?: string; limit?: number; order?: 'asc' | 'desc'; sort?: QuestionSort },
    now: Date,
  ): Promise<Page<QuestionWithCounts>> {
    const grouped = this.answers(siteId, filter)
      .select('a.question_id', 'question_id')
      .addSelect('count(*)', 'answers')
      .addSelect('count(*) FILTER (WHERE a.rating = 1)', 'positive')
      .addSelect(`count(*) FILTER (WHERE a.answered = 'yes')`, 'yes')
      .groupBy('a.question_id');
    const questions = this.dataSource
      .createQueryBuilder(SiteQuestion, 'q')
      .innerJoin(`(${grouped.getQuery()})`, 's', 's.question_id = q.id')
      .setParameters(grouped.getParameters())
      .where('q.site_id = :siteId', { siteId });
    const sortKey = {
      askedAt: { sql: 'q.asked_at', of: (row: QuestionRow) => row.q_asked_at },
      'stats.answered': {
        sql: 'CAST(s.yes AS float8) / s.answers',
        of: (row: QuestionRow) => Number(row.answered_rate),
      },
      'stats.feedback': {
        sql: 'CAST(s.positive AS float8) / s.answers',
        of: (row: QuestionRow) => Number(row.feedback_rate),
      },
      'stats.answers': { sql: 's.answers', of: (row: QuestionRow) => Number(row.s_answers) },
      createdAt: { sql: 'q.created_at', of: (row: QuestionRow) => row.q_created_at },
    }[query.sort ?? 'createdAt'];
    const page = await paginate<SiteQuestion, QuestionRow>(questions, query, {
      keys: [sortKey, { sql: 'q.id', of: (row) => row.q_id }],
      direction: query.order === 'asc' ? 'ASC' : 'DESC',
      count: () => countRows(questions),
      fetch: (rows) =>
        rows
          .select('q.id', 'q_id')
          .addSelect('q.site_id', 'q_site_id')
          .addSelect('q.question', 'q_question')
          .addSelect('q.question_key', 'q_question_key')
          .addSelect('q.created_at', 'q_created_at')
          .addSelect('q.asked_at', 'q_asked_at')
          .addSelect('s.answers', 's_answers')
          .addSelect('CAST(s.yes AS float8) / s.answers', 'answered_rate')
          .addSelect('CAST(s.positive AS float8) / s.answers', 'feedback_rate')
          .getRawMany<QuestionRow>(),
    });
    const ids = page.items.map((row) => row.q_id);
    const counts = await this.countsByQuestion(siteId, filter, ids, now);
    return {
      ...page,
      items: page.items.map((row) => ({
        question: Object.assign(new SiteQuestion(), {
          id: row.q_id,
          siteId: row.q_site_id,
          question: row.q_question,
          questionKey: row.q_question_key,
          createdAt: new Date(row.q_created_at),
          askedAt: new Date(row.q_asked_at),
        }),
        counts: counts.get(row.q_id) ?? emptyCounts(),
      })),
    };
  }

  /** The counts of the site's answers the filter counts. */
  async stats(siteId: string, filter: AnswerFilter, now: Date): Promise<AnswerCounts> {
    const row = await this.answers(siteId, filter).select(COUNTS_SQL).getRawOne<CountsRow>();
    const pulse = await this.pulse(siteId, filter, now);
    return countsOf(row, pulse.get(null) ?? pulseOf([]));
  }

  /** The site's answers the filter counts, newest first (all of them). */
  answersOf(siteId: string, filter: AnswerFilter): Promise<SiteQuestionAnswer[]> {
    return this.answers(siteId, filter).orderBy('a.created_at', 'DESC').getMany();
  }

  /** The site's answers the filter counts, newest first. */
  listAnswers(
    siteId: string,
    filter: AnswerFilter,
    query: { page?: string; limit?: number },
  ): Promise<Page<SiteQuestionAnswer>> {
    return paginate(this.answers(siteId, filter), query, {
      keys: [
        { sql: 'a.created_at', of: (answer) => answer.createdAt },
        { sql: 'a.id', of: (answer) => answer.id },
      ],
      direction: 'DESC',
    });
  }

  findAnswer(siteId: string, id: string): Promise<SiteQuestionAnswer | null> {
    return this.dataSource.getRepository(SiteQuestionAnswer).findOneBy({ siteId, id });
  }

  findQuestion(siteId: string, id: string): Promise<SiteQuestion | null> {
    return this.dataSource.getRepository(SiteQuestion).findOneBy({ siteId, id });
  }

  /**
   * Records an agent's feedback (`submitAgentFeedbackToSite`). One that names an answer of the
   * site by its response id (`reportedBy.correlationId`, the ask's X-Request-Id) is linked to
   * it and rates it -1: an agent reports what went wrong.
   */
  async insertAgentFeedback(
    siteId: string,
    body: SubmitAgentFeedbackDto,
    now: Date,
  ): Promise<{ feedback: SiteAgentFeedback; answer: SiteQuestionAnswer | null }> {
    return this.dataSource.transaction(async (manager) => {
      const correlationId = body.reportedBy?.correlationId;
      const answer = correlationId
        ? await manager
            .getRepository(SiteQuestionAnswer)
            .findOne({ where: { siteId, responseId: correlationId }, order: { createdAt: 'DESC' } })
        : null;
      if (answer) {
        await manager.update(SiteQuestionAnswer, { id: answer.id }, { rating: -1, updatedAt: now });
      }
      const feedback = manager.create(SiteAgentFeedback, {
        id: newId(),
        siteId,
        answerId: answer?.id ?? null,
        subject: { ...body.subject },
        feedback: plain(body.feedback),
        reportedBy: body.reportedBy ? plain(body.reportedBy) : null,
        source: null,
        createdAt: now,
      });
      await manager.insert(SiteAgentFeedback, feedback);
      return { feedback, answer };
    });
  }

  /**
   * Rates the site's recorded answers by their response ids (the renderer's thumbs up and
   * down); a rating given again replaces the earlier one. Ids of no answer change nothing.
   */
  async rateAnswers(
    manager: EntityManager,
    siteId: string,
    ratings: AnswerRating[],
    now: Date,
  ): Promise<void> {
    for (const { responseId, rating } of ratings) {
      await manager.update(SiteQuestionAnswer, { siteId, responseId }, { rating, updatedAt: now });
    }
  }

  /** Records feedback on the site's content (the deprecated `submitSiteAgentFeedback`). */
  async insertSiteContentFeedback(
    siteId: string,
    body: SubmitSiteAgentFeedbackDto,
    now: Date,
  ): Promise<void> {
    await this.dataSource.getRepository(SiteAgentFeedback).insert({
      id: newId(),
      siteId,
      answerId: null,
      subject: { kind: 'site-content', url: body.url, spaceId: body.spaceId, pageId: body.pageId },
      feedback: { summary: body.feedback, ...(body.goal !== undefined ? { goal: body.goal } : {}) },
      reportedBy: null,
      source: body.source ?? null,
      createdAt: now,
    });
  }

  /**
   * Deletes answers and agents' feedback from before `before`, and the questions left without
   * an answer. Returns how many rows went.
   */
  async purgeBefore(before: Date): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const feedback = await manager
        .createQueryBuilder()
        .delete()
        .from(SiteAgentFeedback)
        .where('created_at < :before', { before })
        .execute();
      const answers = await manager
        .createQueryBuilder()
        .delete()
        .from(SiteQuestionAnswer)
        .where('created_at < :before', { before })
        .execute();
      const questions = await manager
        .createQueryBuilder()
        .delete()
        .from(SiteQuestion)
        .where('asked_at < :before', { before })
        .andWhere(
          'NOT EXISTS (SELECT 1 FROM "site_question_answers" a WHERE a.question_id = "site_questions"."id")',
        )
        .execute();
      return (feedback.affected ?? 0) + (answers.affected ?? 0) + (questions.affected ?? 0);
    });
  }

  /** The site's answers the filter counts (`a`). */
  private answers(siteId: string, filter: AnswerFilter): SelectQueryBuilder<SiteQuestionAnswer> {
    const query = this.dataSource
      .createQueryBuilder(SiteQuestionAnswer, 'a')
      .where('a.site_id = :siteId', { siteId });
    if (filter.from !== undefined) query.andWhere('a.created_at >= :from', { from: filter.from });
    if (filter.to !== undefined) query.andWhere('a.created_at <= :to', { to: filter.to });
    if (filter.channelType !== undefined) {
      query.andWhere('a.channel IN (:...channels)', { channels: [...filter.channelType, ''] });
    }
    if (filter.answered !== undefined) {
      query.andWhere('a.answered IN (:...answered)', { answered: [...filter.answered, ''] });
    }
    if (filter.helpfulness !== undefined) {
      query.andWhere(`${HELPFULNESS_SQL} = :helpfulness`, { helpfulness: filter.helpfulness });
    }
    if (filter.question !== undefined) {
      query.andWhere('a.question_id = :questionId', { questionId: filter.question });
    }
    // Each ask is a thread of its own: a thread is its one answer.
    if (filter.thread !== undefined) query.andWhere('a.id = :thread', { thread: filter.thread });
    // What Bindery does not classify: every answer relevant, of type unknown, in no topic, of
    // an undetermined language.
    const topics = typeof filter.topic === 'string' ? [filter.topic] : (filter.topic ?? []);
    if (
      (filter.relevance !== undefined && !filter.relevance.includes('relevant')) ||
      (filter.type !== undefined && filter.type !== 'unknown') ||
      (filter.language !== undefined && filter.language !== 'und') ||
      topics.length > 0
    ) {
      query.andWhere('FALSE');
    }
    return query;
  }

  /** The counts of each question's answers the filter counts, by question id. */
  async countsByQuestion(
    siteId: string,
    filter: AnswerFilter,
    ids: string[],
    now: Date,
  ): Promise<Map<string, AnswerCounts>> {
    if (ids.length === 0) return new Map();
    const rows = await this.answers(siteId, filter)
      .andWhere('a.question_id IN (:...questionIds)', { questionIds: ids })
      .select('a.question_id', 'question_id')
      .addSelect(COUNTS_SQL)
      .groupBy('a.question_id')
      .getRawMany<CountsRow & { question_id: string }>();
    const pulses = await this.pulse(siteId, filter, now, ids);
    return new Map(
      rows.map((row) => [
        row.question_id,
        countsOf(row, pulses.get(row.question_id) ?? pulseOf([])),
      ]),
    );
  }

  /** Answers per week of the last 13: of the whole filter (key null), or of each question. */
  private async pulse(
    siteId: string,
    filter: AnswerFilter,
    now: Date,
    ids?: string[],
  ): Promise<Map<string | null, number[]>> {
    const { start, end } = pulseWindow(now);
    const query = this.answers(siteId, filter)
      .andWhere('a.created_at >= :pulseStart AND a.created_at < :pulseEnd', {
        pulseStart: start,
        pulseEnd: end,
      })
      .select(weekIndexSql('a.created_at', ':pulseStart'), 'week')
      .addSelect('count(*)', 'count')
      .groupBy('week');
    if (ids) {
      query
        .andWhere('a.question_id IN (:...pulseIds)', { pulseIds: ids })
        .addSelect('a.question_id', 'question_id')
        .addGroupBy('a.question_id');
    }
    const rows = await query.getRawMany<{ week: number; count: string; question_id?: string }>();
    const weeks = new Map<string | null, { week: number; count: number }[]>();
    for (const row of rows) {
      const key = row.question_id ?? null;
      const list = weeks.get(key) ?? [];
      list.push({ week: Number(row.week), count: Number(row.count) });
      weeks.set(key, list);
    }
    return new Map([...weeks].map(([key, list]) => [key, pulseOf(list)]));
  }
}

interface QuestionRow {
  q_id: string;
  q_site_id: string;
  q_question: string;
  q_question_key: string;
  q_created_at: Date;
  q_asked_at: Date;
  s_answers: string;
  answered_rate: number;
  feedback_rate: number;
}

export function emptyCounts(): AnswerCounts {
  return {
    questions: 0,
    answers: 0,
    positive: 0,
    negative: 0,
    unrated: 0,
    yes: 0,
    no: 0,
    site: 0,
    api: 0,
    weeklyPulse: pulseOf([]),
  };
}

function countsOf(row: CountsRow | undefined, weeklyPulse: number[]): AnswerCounts {
  if (!row) return emptyCounts();
  return {
    questions: Number(row.questions),
    answers: Number(row.answers),
    positive: Number(row.positive),
    negative: Number(row.negative),
    unrated: Number(row.unrated),
    yes: Number(row.yes),
    no: Number(row.no),
    site: Number(row.site),
    api: Number(row.api),
    weeklyPulse,
  };
}

/** A validated DTO as the plain object stored. */
function plain<T extends object>(value: T): object {
  return JSON.parse(JSON.stringify(value)) as object;
}
