import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** What used an organization's tokens (a counter's `feature`). */
export const AI_FEATURES = ['site-ask', 'organization-ask', 'recommended-questions'] as const;
export type AiFeature = (typeof AI_FEATURES)[number];

/** One counter: the tokens of one feature on one UTC day (`YYYY-MM-DD`). */
export interface DailyUsage {
  day: string;
  feature: string;
  tokens: number;
}

/** The daily token counters of `ai_usage_counters`. */
@Injectable()
export class AiUsageRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Adds `tokens` to the organization's counter of `feature` on `day`, in one statement. */
  async add(organizationId: string, day: string, feature: AiFeature, tokens: number) {
    await this.dataSource.query(
      `INSERT INTO ai_usage_counters AS c (organization_id, day, feature, tokens)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (organization_id, day, feature) DO UPDATE SET tokens = c.tokens + EXCLUDED.tokens`,
      [organizationId, day, feature, Math.ceil(tokens)],
    );
  }

  /** The organization's tokens from `fromDay` to `toDay`, both included. */
  async total(organizationId: string, fromDay: string, toDay: string): Promise<number> {
    const rows: { tokens: string | null }[] = await this.dataSource.query(
      `SELECT sum(tokens)::bigint AS tokens FROM ai_usage_counters
        WHERE organization_id = $1 AND day BETWEEN $2::date AND $3::date`,
      [organizationId, fromDay, toDay],
    );
    return Number(rows[0]?.tokens ?? 0);
  }

  /** The organization's counters from `fromDay` to `toDay`, both included, by day then feature. */
  async daily(organizationId: string, fromDay: string, toDay: string): Promise<DailyUsage[]> {
    const rows: { day: string; feature: string; tokens: string }[] = await this.dataSource.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, feature, tokens FROM ai_usage_counters
        WHERE organization_id = $1 AND day BETWEEN $2::date AND $3::date
        ORDER BY day, feature`,
      [organizationId, fromDay, toDay],
    );
    return rows.map((row) => ({ day: row.day, feature: row.feature, tokens: Number(row.tokens) }));
  }
}
