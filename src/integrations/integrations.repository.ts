import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager, type SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { entityFromRow } from '../platform/database/entity-from-row';
import { containsPattern } from '../orgs/members/like-pattern';
import { paginate, type PageRequest } from '../platform/pagination/keyset';
import type { Page } from '../platform/pagination/page';
import type { ListIntegrationsQueryDto } from './dto/publish-integration.dto';
import { IntegrationVersion } from './entities/integration-version.entity';
import { Integration } from './entities/integration.entity';

/** How many versions' scripts are kept: the current one and a few before it. */
export const KEPT_VERSIONS = 5;

/** Who lists: the instance administrator sees every integration, a user what it may see. */
export type IntegrationViewer = { kind: 'admin' } | { kind: 'user'; userId: string };

/** The `integrations` table and the scripts of their versions. */
@Injectable()
export class IntegrationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The integration named `name` with the caller's membership of its owner: `member_role` is
   * the role (null for a guest), `is_member` false when the caller is not a member at all.
   */
  async findWithMembership(
    name: string,
    userId: string,
  ): Promise<{ integration: Integration; isMember: boolean; role: string | null } | null> {
    const rows = await this.dataSource.query<Record<string, unknown>[]>(
      `SELECT i.*, m.user_id IS NOT NULL AS is_member, m.role AS member_role
         FROM integrations i
         LEFT JOIN organization_members m
           ON m.organization_id = i.organization_id AND m.user_id = $2 AND NOT m.disabled
        WHERE i.name = $1`,
      [name, userId],
    );
    if (rows.length === 0) return null;
    return {
      integration: entityFromRow(this.dataSource, Integration, rows[0]),
      isMember: rows[0].is_member === true,
      role: (rows[0].member_role as string | null) ?? null,
    };
  }

  findById(id: string): Promise<Integration | null> {
    return this.dataSource.manager.findOneBy(Integration, { id });
  }

  findByName(
    name: string,
    manager: EntityManager = this.dataSource.manager,
    lock = false,
  ): Promise<Integration | null> {
    const query = manager
      .getRepository(Integration)
      .createQueryBuilder('integration')
      .where('integration.name = :name', { name });
    if (lock) query.setLock('pessimistic_write');
    return query.getOne();
  }

  /** The integrations `viewer` may see, by name, with the list's filters. */
  page(viewer: IntegrationViewer, query: ListIntegrationsQueryDto): Promise<Page<Integration>> {
    const builder = this.dataSource.manager.getRepository(Integration).createQueryBuilder('i');
    if (viewer.kind === 'user') {
      // Public ones, and every one of the organizations the user is a member of.
      builder.where(
        new Brackets((visible) =>
          visible.where(`i.visibility = 'public'`).orWhere(
            `i.organization_id IN (SELECT m.organization_id FROM organization_members m
                WHERE m.user_id = :userId AND NOT m.disabled)`,
            { userId: viewer.userId },
          ),
        ),
      );
    }
    return pageOfCatalogue(builder, query);
  }

  async insert(integration: Integration, manager: EntityManager): Promise<void> {
    await manager.insert(Integration, integration as QueryDeepPartialEntity<Integration>);
  }

  async update(
    id: string,
    changes: Partial<Integration>,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.update(Integration, { id }, changes as QueryDeepPartialEntity<Integration>);
  }

  /** Records `version`'s script and forgets the scripts of versions older than the kept ones. */
  async addVersion(version: IntegrationVersion, manager: EntityManager): Promise<void> {
    await manager.insert(IntegrationVersion, version as QueryDeepPartialEntity<IntegrationVersion>);
    await manager.query(
      `DELETE FROM integration_versions WHERE integration_id = $1 AND version <= $2`,
      [version.integrationId, version.version - KEPT_VERSIONS],
    );
  }

  /** The script of the integration's `version`, if still kept. */
  async script(integrationId: string, version: number): Promise<string | null> {
    const row = await this.dataSource.manager.findOne(IntegrationVersion, {
      where: { integrationId, version },
      select: { script: true },
    });
    return row?.script ?? null;
  }

  /** Deletes the integration (its versions with it); false when there was none by that id. */
  async delete(id: string, manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    const result = await manager.delete(Integration, { id });
    return (result.affected ?? 0) > 0;
  }
}

/**
 * A page of integrations by name from `builder` (alias `i`), with the catalogue's filters
 * (GitBook's `listIntegrations` query); the organization's and content's lists use them too.
 */
export function pageOfCatalogue(
  builder: SelectQueryBuilder<Integration>,
  query: Partial<ListIntegrationsQueryDto> & PageRequest,
): Promise<Page<Integration>> {
  if (query.search) {
    builder.andWhere(`(i.name ILIKE :search OR i.title ILIKE :search)`, {
      search: containsPattern(query.search),
    });
  }
  if (query.category) builder.andWhere(':category = ANY(i.categories)', query);
  if (query.scope) builder.andWhere(':scope = ANY(i.scopes)', query);
  if (query.owner) builder.andWhere('i.organization_id = :owner', query);
  if (query.target) {
    // An integration for `all` targets may be installed on any of them.
    builder.andWhere(
      query.target === 'all' ? `i.target = 'all'` : `i.target IN (:target, 'all')`,
      query,
    );
  }
  if (query.blocks !== undefined) {
    builder.andWhere(`jsonb_array_length(i.blocks) ${query.blocks ? '>' : '='} 0`);
  }
  if (query.contentSources !== undefined) {
    builder.andWhere(`jsonb_array_length(i.content_sources) ${query.contentSources ? '>' : '='} 0`);
  }
  if (query.blockDomain) {
    builder.andWhere(
      `EXISTS (SELECT 1 FROM jsonb_array_elements(i.blocks) block,
                   jsonb_array_elements_text(COALESCE(block->'urlUnfurl', '[]')) pattern
                  WHERE pattern ILIKE :domainPattern)`,
      { domainPattern: containsPattern(query.blockDomain) },
    );
  }
  return paginate(builder, query, {
    keys: [{ sql: 'i.name', of: (integration) => integration.name }],
    direction: 'ASC',
  });
}
