import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { paginate, type PageRequest } from '../../platform/pagination/keyset';
import type { Page } from '../../platform/pagination/page';
import type { ListIntegrationsQueryDto } from '../dto/publish-integration.dto';
import { Integration } from '../entities/integration.entity';
import { pageOfCatalogue } from '../integrations.repository';
import { containsPattern } from '../../orgs/members/like-pattern';
import { IntegrationInstallation } from './entities/integration-installation.entity';
import { IntegrationSiteInstallation } from './entities/integration-site-installation.entity';
import { IntegrationSpaceInstallation } from './entities/integration-space-installation.entity';

/** A space or a site installation, by the table that holds it. */
export type ContentKind = 'space' | 'site';
export type ContentInstallation = IntegrationSpaceInstallation | IntegrationSiteInstallation;

/** A space or site installation with its installation and the installation's integration. */
export interface ContentInstallationRow {
  kind: ContentKind;
  row: ContentInstallation;
  installation: IntegrationInstallation;
  integration: Integration;
}

/**
 * Which organizations a list reaches: all (none limited), or those where the user's role is one
 * of `roles` (the roles a permission of organizationPermissions opens).
 */
export type OrganizationReach = { userId: string; roles: readonly string[] };

const ENTITY = { space: IntegrationSpaceInstallation, site: IntegrationSiteInstallation } as const;
const ID_COLUMN = { space: 'space_id', site: 'site_id' } as const;

/**
 * The installations' tables: `integration_installations` and, below them,
 * `integration_space_installations` and `integration_site_installations`. Lists that answer
 * integrations join `integrations` (the integrations module's table) to stay one statement; the
 * reach of a list reads `organization_members` the same way (IntegrationsRepository does too).
 */
@Injectable()
export class InstallationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  findInstallation(
    integrationId: string,
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<IntegrationInstallation | null> {
    return manager.findOneBy(IntegrationInstallation, { id, integrationId });
  }

  findInstallationInOrganization(
    integrationId: string,
    organizationId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<IntegrationInstallation | null> {
    return manager.findOneBy(IntegrationInstallation, { integrationId, organizationId });
  }

  async insertInstallation(
    installation: IntegrationInstallation,
    manager: EntityManager,
  ): Promise<void> {
    await manager.insert(
      IntegrationInstallation,
      installation as QueryDeepPartialEntity<IntegrationInstallation>,
    );
  }

  async updateInstallation(
    id: string,
    changes: Partial<IntegrationInstallation>,
    manager: EntityManager,
  ): Promise<void> {
    await manager.update(
      IntegrationInstallation,
      { id },
      changes as QueryDeepPartialEntity<IntegrationInstallation>,
    );
  }

  /** Deletes the installation, its space and site installations with it (ON DELETE CASCADE). */
  async deleteInstallation(id: string, manager: EntityManager): Promise<boolean> {
    const result = await manager.delete(IntegrationInstallation, { id });
    return (result.affected ?? 0) > 0;
  }

  /** How many spaces each installation is installed on (GitBook's `spaces`). */
  async countSpaces(
    installationIds: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, number>> {
    if (installationIds.length === 0) return new Map();
    const rows = await manager
      .getRepository(IntegrationSpaceInstallation)
      .createQueryBuilder('s')
      .select('s.installation_id', 'installation_id')
      .addSelect('count(*)::int', 'count')
      .where('s.installation_id IN (:...installationIds)', { installationIds })
      .groupBy('s.installation_id')
      .getRawMany<{ installation_id: string; count: number }>();
    return new Map(rows.map((row) => [row.installation_id, Number(row.count)]));
  }

  /**
   * The installations of an integration in the organizations `reach` reaches (null: all of
   * them, for the integration itself), oldest first.
   */
  pageInstallations(
    integrationId: string,
    reach: OrganizationReach | null,
    externalId: string | undefined,
    request: PageRequest,
  ): Promise<Page<IntegrationInstallation>> {
    const query = this.dataSource.manager
      .getRepository(IntegrationInstallation)
      .createQueryBuilder('inst')
      .where('inst.integration_id = :integrationId', { integrationId });
    if (reach) this.reaching(query, 'inst', reach);
    if (externalId !== undefined) {
      query.andWhere(':externalId = ANY(inst.external_ids)', { externalId });
    }
    return paginate(query, request, {
      keys: [
        { sql: 'inst.created_at', of: (row) => row.createdAt },
        { sql: 'inst.id', of: (row) => row.id },
      ],
      direction: 'ASC',
    });
  }

  /**
   * The organization's installations with their integrations, by integration name; `search`
   * in the integration's name or title.
   */
  async pageOrganizationInstallations(
    organizationId: string,
    search: string | undefined,
    request: PageRequest,
  ): Promise<Page<{ installation: IntegrationInstallation; integration: Integration }>> {
    const query = this.dataSource.manager
      .getRepository(IntegrationInstallation)
      .createQueryBuilder('inst')
      .innerJoinAndSelect('inst.integration', 'i')
      .where('inst.organization_id = :organizationId', { organizationId });
    if (search) {
      query.andWhere('(i.name ILIKE :search OR i.title ILIKE :search)', {
        search: containsPattern(search),
      });
    }
    const page = await paginate(query, request, {
      keys: [{ sql: 'i.name', of: (row) => row.integration!.name }],
      direction: 'ASC',
    });
    return {
      ...page,
      items: page.items.map((installation) => ({
        installation,
        integration: installation.integration!,
      })),
    };
  }

  /**
   * The integrations installed on the organization, one of its spaces or one of its sites, by
   * name, with the catalogue's filters (as IntegrationsRepository.page applies them).
   */
  pageInstalledIntegrations(
    on: { organizationId: string } | { kind: ContentKind; id: string },
    query: Partial<ListIntegrationsQueryDto> & PageRequest,
  ): Promise<Page<Integration>> {
    const builder = this.dataSource.manager.getRepository(Integration).createQueryBuilder('i');
    if ('organizationId' in on) {
      builder.where(
        `EXISTS (SELECT 1 FROM integration_installations inst
                  WHERE inst.integration_id = i.id AND inst.organization_id = :organizationId)`,
        { organizationId: on.organizationId },
      );
    } else {
      builder.where(
        `EXISTS (SELECT 1 FROM integration_installations inst
                   JOIN integration_${on.kind}_installations c ON c.installation_id = inst.id
                  WHERE inst.integration_id = i.id AND c.${ID_COLUMN[on.kind]} = :contentId)`,
        { contentId: on.id },
      );
    }
    return pageOfCatalogue(builder, query);
  }

  findContent(
    kind: ContentKind,
    installationId: string,
    contentId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ContentInstallation | null> {
    return kind === 'space'
      ? manager.findOneBy(IntegrationSpaceInstallation, { installationId, spaceId: contentId })
      : manager.findOneBy(IntegrationSiteInstallation, { installationId, siteId: contentId });
  }

  async insertContent(
    kind: ContentKind,
    row: ContentInstallation,
    manager: EntityManager,
  ): Promise<void> {
    await manager.insert(ENTITY[kind], row as QueryDeepPartialEntity<ContentInstallation>);
  }

  async updateContent(
    kind: ContentKind,
    installationId: string,
    contentId: string,
    changes: Partial<Pick<ContentInstallation, 'configuration' | 'externalIds' | 'updatedAt'>>,
    manager: EntityManager,
  ): Promise<void> {
    await manager.update(
      ENTITY[kind],
      kind === 'space'
        ? { installationId, spaceId: contentId }
        : { installationId, siteId: contentId },
      changes as QueryDeepPartialEntity<ContentInstallation>,
    );
  }

  async deleteContent(
    kind: ContentKind,
    installationId: string,
    contentId: string,
    manager: EntityManager,
  ): Promise<boolean> {
    const result = await manager.delete(
      ENTITY[kind],
      kind === 'space'
        ? { installationId, spaceId: contentId }
        : { installationId, siteId: contentId },
    );
    return (result.affected ?? 0) > 0;
  }

  /**
   * Space or site installations, oldest first: those of one installation, or those of an
   * integration in the organizations `reach` reaches (with one of its external IDs), or those
   * of one organization (of one space or site of it), each with its installation and integration.
   */
  async pageContent(
    kind: ContentKind,
    of:
      | { installationId: string }
      | { integrationId: string; reach: OrganizationReach | null; externalId?: string }
      | { organizationId: string; contentId?: string },
    request: PageRequest,
  ): Promise<Page<ContentInstallationRow>> {
    const column = ID_COLUMN[kind];
    const query = this.dataSource.manager
      .getRepository<ContentInstallation>(ENTITY[kind])
      .createQueryBuilder('c')
      .innerJoinAndSelect('c.installation', 'inst')
      .innerJoinAndSelect('inst.integration', 'i');
    if ('installationId' in of) {
      query.where('c.installation_id = :installationId', of);
    } else if ('integrationId' in of) {
      query.where('inst.integration_id = :integrationId', of);
      if (of.reach) this.reaching(query, 'c', of.reach);
      if (of.externalId !== undefined) {
        query.andWhere(':externalId = ANY(c.external_ids)', { externalId: of.externalId });
      }
    } else {
      query.where('c.organization_id = :organizationId', of);
      if (of.contentId !== undefined) {
        query.andWhere(`c.${column} = :contentId`, { contentId: of.contentId });
      }
    }
    const contentIdOf = (row: ContentInstallation) => ('spaceId' in row ? row.spaceId : row.siteId);
    const page = await paginate(query, request, {
      keys: [
        { sql: 'c.created_at', of: (row) => row.createdAt },
        { sql: 'c.installation_id', of: (row) => row.installationId },
        { sql: `c.${column}`, of: contentIdOf },
      ],
      direction: 'ASC',
    });
    return { ...page, items: page.items.map((row) => this.contentRow(kind, row)) };
  }

  /**
   * Every installation on one space or site, with its installation and integration; with
   * `scope`, only those of integrations that asked for it; with `blocks`, only those of
   * integrations that have blocks.
   */
  async installedOn(
    kind: ContentKind,
    contentId: string,
    filter: { scope?: string; blocks?: true } = {},
  ): Promise<ContentInstallationRow[]> {
    const query = this.dataSource.manager
      .getRepository<ContentInstallation>(ENTITY[kind])
      .createQueryBuilder('c')
      .innerJoinAndSelect('c.installation', 'inst')
      .innerJoinAndSelect('inst.integration', 'i')
      .where(`c.${ID_COLUMN[kind]} = :contentId`, { contentId })
      .orderBy('i.name', 'ASC');
    if (filter.scope) query.andWhere(':scope = ANY(i.scopes)', { scope: filter.scope });
    if (filter.blocks) query.andWhere('jsonb_array_length(i.blocks) > 0');
    return (await query.getMany()).map((row) => this.contentRow(kind, row));
  }

  private contentRow(kind: ContentKind, row: ContentInstallation): ContentInstallationRow {
    const installation = row.installation!;
    return { kind, row, installation, integration: installation.integration! };
  }

  /** Limits a list to the organizations the user's role in opens (`alias.organization_id`). */
  private reaching<T extends object>(
    query: SelectQueryBuilder<T>,
    alias: string,
    reach: OrganizationReach,
  ): void {
    query.andWhere(
      new Brackets((where) =>
        where.where(
          `${alias}.organization_id IN (SELECT m.organization_id FROM organization_members m
              WHERE m.user_id = :reachUserId AND NOT m.disabled AND m.role IN (:...reachRoles))`,
          { reachUserId: reach.userId, reachRoles: reach.roles },
        ),
      ),
    );
  }

  /**
   * Whether the integration is installed on the organization (by `installationId` only, when
   * given), and, with `content`, whether that installation covers the space or site: all of
   * them when its selection is `all`, else those it is installed on.
   */
  async covers(
    integrationId: string,
    organizationId: string,
    {
      installationId,
      content,
    }: {
      installationId: string | null;
      content?: { kind: 'space' | 'site'; contentId: string };
    },
  ): Promise<boolean> {
    const parameters: unknown[] = [integrationId, organizationId];
    let sql =
      'SELECT 1 FROM integration_installations i WHERE i.integration_id = $1 AND i.organization_id = $2';
    if (installationId !== null) {
      parameters.push(installationId);
      sql += ` AND i.id = $${parameters.length}`;
    }
    if (content) {
      parameters.push(content.contentId);
      const { kind } = content;
      sql +=
        ` AND (i.${kind}_selection = 'all' OR EXISTS (SELECT 1 FROM integration_${kind}_installations c` +
        ` WHERE c.installation_id = i.id AND c.${kind}_id = $${parameters.length}))`;
    }
    const rows: unknown[] = await this.dataSource.query(`${sql} LIMIT 1`, parameters);
    return rows.length > 0;
  }

  /** Whether any integration is installed on the organization (read in the writer's transaction). */
  async anyInOrganization(organizationId: string, manager: EntityManager): Promise<boolean> {
    return manager.exists(IntegrationInstallation, { where: { organizationId } });
  }

  /** The organization's installations that cover all its spaces (or sites), with their integration. */
  selectingAll(kind: ContentKind, organizationId: string): Promise<IntegrationInstallation[]> {
    return this.dataSource.manager.find(IntegrationInstallation, {
      where: {
        organizationId,
        ...(kind === 'space' ? { spaceSelection: 'all' } : { siteSelection: 'all' }),
      },
      relations: { integration: true },
    });
  }
}
