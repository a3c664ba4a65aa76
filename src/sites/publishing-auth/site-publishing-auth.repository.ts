import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SitePublishingAuth } from '../entities/site-publishing-auth.entity';

/** The `site_publishing_auth` table: one row per site. */
@Injectable()
export class SitePublishingAuthRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  find(
    siteId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SitePublishingAuth | null> {
    return manager.findOneBy(SitePublishingAuth, { siteId });
  }

  /** Inserts the row unless the site has one (two first reads at once make one row). */
  async insertIfAbsent(
    row: SitePublishingAuth,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager
      .createQueryBuilder()
      .insert()
      .into(SitePublishingAuth)
      .values(row)
      .orIgnore()
      .execute();
  }

  /** Inserts the row, or gives the site's row its key (and `updatedAt`); returns the row. */
  async upsertKey(
    row: SitePublishingAuth,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<SitePublishingAuth> {
    await manager
      .createQueryBuilder()
      .insert()
      .into(SitePublishingAuth)
      .values(row)
      .orUpdate(['private_key_sealed', 'updated_at'], ['site_id'])
      .execute();
    return (await this.find(row.siteId, manager)) as SitePublishingAuth;
  }

  async update(
    siteId: string,
    fields: Partial<Pick<SitePublishingAuth, 'fallbackUrl' | 'logoutUrl' | 'updatedAt'>>,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.update(SitePublishingAuth, { siteId }, fields);
  }
}
