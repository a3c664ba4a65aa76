import { Injectable, Logger } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import type { Actor } from '../../platform/auth/actor';
import { Clock } from '../../platform/clock/clock';
import { AppConfig } from '../../platform/config/app-config';
import { DomainError, invalidInput } from '../../platform/errors/domain-error';
import type { OrganizationAIUsageQueryDto } from '../dto/ask-in-organization.dto';
import type { OrganizationAIUsageResponse } from '../dto/organization-answer.response';
import { type AiFeature, AiUsageRepository } from './ai-usage.repository';
import { usagePeriods } from './usage-periods';

const MINUTE_MS = 60_000;

/** `YYYY-MM-DD` of a time, in UTC. */
export const utcDay = (time: Date) => time.toISOString().slice(0, 10);

/**
 * The limits on answers: questions per minute (per visitor and per site for a site's asks, per
 * member for an organization's), counted in the rate limit store every API process shares
 * (RATE_LIMIT_STORE), and the organization's monthly token budget (AI_MONTHLY_TOKEN_BUDGET),
 * counted from what the model reports. Both are checked before anything is answered.
 */
@Injectable()
export class AnswerLimits {
  private readonly logger = new Logger('AnswerLimits');

  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    private readonly config: AppConfig,
    private readonly counters: AiUsageRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * One more question asked of `siteId` by `caller`: 429 once the visitor's or the site's limit
   * is reached. A member is its user; a site's token, the `visitorId` its renderer sends in
   * the question's session, else the token itself (one for all the visitors it was made for).
   */
  async admitSiteAsk(siteId: string, caller: Actor, visitorId?: string): Promise<void> {
    const visitor = visitorOf(caller, visitorId);
    await this.hit(
      'ai-ask-visitor',
      `${siteId}:${visitor}`,
      this.config.AI_ASK_PER_VISITOR_PER_MINUTE,
      'You have asked this site too many questions; ask again after the delay in Retry-After.',
    );
    await this.hit(
      'ai-ask-site',
      siteId,
      this.config.AI_ASK_PER_SITE_PER_MINUTE,
      'This site has been asked too many questions; ask again after the delay in Retry-After.',
    );
  }

  /**
   * Whether recommended questions for `siteId` may be asked of the model for `caller`: within
   * the ask limits per visitor and per site (AI_ASK_PER_VISITOR_PER_MINUTE,
   * AI_ASK_PER_SITE_PER_MINUTE), counted apart from the questions asked. Beyond them the
   * suggestions are made from the page titles, without the model (never refused: the renderer
   * asks for them whenever its search box opens).
   */
  async suggestForSite(siteId: string, caller: Actor): Promise<boolean> {
    return (
      !(await this.spend(
        'ai-suggest-visitor',
        `${siteId}:${visitorOf(caller)}`,
        this.config.AI_ASK_PER_VISITOR_PER_MINUTE,
      )) && !(await this.spend('ai-suggest-site', siteId, this.config.AI_ASK_PER_SITE_PER_MINUTE))
    );
  }

  /** suggestForSite for a member's recommended questions of the organization. */
  async suggestForMember(organizationId: string, userId: string): Promise<boolean> {
    return !(await this.spend(
      'ai-suggest-member',
      `${organizationId}:${userId}`,
      this.config.AI_ASK_PER_MEMBER_PER_MINUTE,
    ));
  }

  /** One more question asked of the organization by a member: 429 beyond its limit. */
  async admitOrganizationAsk(organizationId: string, userId: string): Promise<void> {
    await this.hit(
      'ai-ask-member',
      `${organizationId}:${userId}`,
      this.config.AI_ASK_PER_MEMBER_PER_MINUTE,
      'You have asked too many questions; ask again after the delay in Retry-After.',
    );
  }

  /** 429 when the organization has used its monthly token budget, until the month ends. */
  async assertBudget(organizationId: string): Promise<void> {
    if (await this.budgetLeft(organizationId)) return;
    const now = this.clock.now();
    const nextMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    throw new DomainError(
      'rate_limited',
      'AIBudgetExhausted',
      `This organization has used its monthly AI budget (${this.config.AI_MONTHLY_TOKEN_BUDGET} ` +
        `tokens, AI_MONTHLY_TOKEN_BUDGET): answers resume on ${utcDay(new Date(nextMonth))}.`,
      Math.max(1, Math.ceil((nextMonth - now.getTime()) / 1000)),
    );
  }

  /** Whether the organization has tokens left this month (always, without a budget). */
  async budgetLeft(organizationId: string): Promise<boolean> {
    const budget = this.config.AI_MONTHLY_TOKEN_BUDGET;
    if (budget === undefined) return true;
    return (await this.monthTokens(organizationId)) < budget;
  }

  /** The organization's tokens this calendar month (UTC). */
  async monthTokens(organizationId: string): Promise<number> {
    const now = this.clock.now();
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    return this.counters.total(organizationId, utcDay(first), utcDay(now));
  }

  /**
   * Counts the tokens a reply used, today. A failure to count is logged and swallowed: the
   * answer was given.
   */
  async record(organizationId: string, feature: AiFeature, tokens: number): Promise<void> {
    if (!(tokens > 0)) return;
    try {
      await this.counters.add(organizationId, utcDay(this.clock.now()), feature, tokens);
    } catch (error) {
      this.logger.warn({ err: error, organizationId, feature }, 'AI usage not counted');
    }
  }

  /**
   * GitBook's `getOrganizationAIUsage`: the organization's tokens from `from` to `to` (capped
   * at now), by bucket of `interval` and feature. 400 for a range that ends before it starts or
   * starts over two years ago.
   */
  async usage(
    organizationId: string,
    query: OrganizationAIUsageQueryDto,
  ): Promise<OrganizationAIUsageResponse> {
    const now = this.clock.now();
    const from = new Date(query.from);
    const to = new Date(Math.min(new Date(query.to).getTime(), now.getTime()));
    const twoYearsAgo = new Date(now);
    twoYearsAgo.setUTCFullYear(now.getUTCFullYear() - 2);
    if (from < twoYearsAgo) throw invalidInput('`from` cannot be more than two years ago.');
    if (from >= new Date(query.to)) throw invalidInput('`from` must be before `to`.');
    // A range that starts in the future has nothing yet.
    if (to <= from) return { from: from.toISOString(), to: to.toISOString(), periods: [] };
    const lastDay = utcDay(new Date(to.getTime() - 1));
    const counters = await this.counters.daily(organizationId, utcDay(from), lastDay);
    return usagePeriods(from, to, query.interval ?? 'day', counters);
  }

  private async hit(name: string, key: string, limit: number, message: string): Promise<void> {
    const blocked = await this.spend(name, key, limit);
    if (blocked === undefined) return;
    throw new DomainError('rate_limited', 'AIAskRateLimited', message, blocked.retryAfter);
  }

  /**
   * One more use of `name` by `key` this minute, in the rate limit store: undefined while within
   * `limit` (0: no limit), else when to try again (seconds).
   */
  private async spend(
    name: string,
    key: string,
    limit: number,
  ): Promise<{ retryAfter: number } | undefined> {
    if (limit === 0) return undefined;
    const record = await this.storage.increment(`${name}:${key}`, MINUTE_MS, limit, 0, name);
    if (!record.isBlocked) return undefined;
    return { retryAfter: Math.max(1, record.timeToBlockExpire || record.timeToExpire) };
  }
}

/**
 * Whom a site's limits count: a member is its user; a site's token, the `visitorId` its
 * renderer sends, else the token itself (one for all the visitors it was made for).
 */
function visitorOf(caller: Actor, visitorId?: string): string {
  return caller.kind === 'user'
    ? `user:${caller.userId}`
    : visitorId !== undefined
      ? `visitor:${visitorId}`
      : `token:${tokenHashOf(caller)}`;
}

function tokenHashOf(caller: Actor): string {
  return 'tokenHash' in caller ? caller.tokenHash : 'unknown';
}
