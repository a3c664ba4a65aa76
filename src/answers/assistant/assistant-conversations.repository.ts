import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SiteAssistantResponse } from './entities/site-assistant-response.entity';

type ResponseRow = Pick<SiteAssistantResponse, 'question' | 'messages' | 'pending'>;

/** The `site_assistant_responses` table. */
@Injectable()
export class AssistantConversationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(response: Omit<SiteAssistantResponse, 'site'>): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO site_assistant_responses
         (id, site_id, owner_hash, question, messages, pending, expires_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7)`,
      [
        response.id,
        response.siteId,
        response.ownerHash,
        response.question,
        JSON.stringify(response.messages),
        response.pending === null ? null : JSON.stringify(response.pending),
        response.expiresAt,
      ],
    );
  }

  /** The response `id` of this site and owner, unless it expired by `now`. */
  async find(
    id: string,
    siteId: string,
    ownerHash: string,
    now: Date,
  ): Promise<ResponseRow | undefined> {
    const rows: ResponseRow[] = await this.dataSource.query(
      `SELECT question, messages, pending FROM site_assistant_responses
        WHERE id = $1 AND site_id = $2 AND owner_hash = $3 AND expires_at > $4`,
      [id, siteId, ownerHash, now],
    );
    return rows[0];
  }

  /** Deletes the responses expired by `now`; answers how many. */
  async deleteExpired(now: Date): Promise<number> {
    const result = await this.dataSource
      .createQueryBuilder()
      .delete()
      .from(SiteAssistantResponse)
      .where('expires_at <= :now', { now })
      .execute();
    return result.affected ?? 0;
  }
}
