import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { paginate, PageRequest } from '../../platform/pagination/keyset';
import { Page } from '../../platform/pagination/page';
import { SiteShareLink } from '../entities/site-share-link.entity';

/** The `site_share_links` table. */
@Injectable()
export class SiteShareLinksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A page of the site's share links, oldest first. */
  listForSite(
    siteId: string,
    request: PageRequest,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<SiteShareLink>> {
    const query = manager
      .getRepository(SiteShareLink)
      .createQueryBuilder('link')
      .where('link.site_id = :siteId', { siteId });
    return paginate(query, request, {
      keys: [
        { sql: 'link.created_at', of: (link) => link.createdAt },
        { sql: 'link.id', of: (link) => link.id },
      ],
      direction: 'ASC',
    });
  }
}
