import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { preparedQuery } from '../platform/database/prepared-query';
import { paginate, PageRequest } from '../platform/pagination/keyset';
import { Page } from '../platform/pagination/page';
import { Member } from './entities/member.entity';
import { Organization } from './entities/organization.entity';

/**
 * The `organizations` table, with the memberships that open it (`organization_members`): the
 * access check and a user's list of organizations read both.
 */
@Injectable()
export class OrganizationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The organization, or null. */
  findById(
    organizationId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Organization | null> {
    return manager.findOneBy(Organization, { id: organizationId });
  }

  /** The organization whose id or hostname (its `<hostname>.<platform domain>`) is `value`. */
  async findByIdOrHostname(value: string): Promise<Organization | null> {
    const found = await this.dataSource.manager
      .getRepository(Organization)
      .createQueryBuilder('o')
      .where('o.id = :value OR o.hostname = :value', { value })
      .getMany();
    return found.find((organization) => organization.id === value) ?? found[0] ?? null;
  }

  /**
   * The user's enabled membership (`member_role`) with the organization's row (`o.*`); none
   * when the user is not an enabled member. A prepared statement: every organization request
   * runs it.
   */
  accessRows(
    organizationId: string,
    userId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Record<string, unknown>[]> {
    return preparedQuery(
      manager,
      'bindery_resolve_organization',
      `SELECT m.role AS member_role, o.*
         FROM organization_members m JOIN organizations o ON o.id = m.organization_id
        WHERE m.organization_id = $1 AND m.user_id = $2 AND NOT m.disabled`,
      [organizationId, userId],
    );
  }

  /** A page of the user's enabled memberships (guests too), with organizations, newest first. */
  pageMembershipsOfUser(
    userId: string,
    request: PageRequest,
    onlyOrganization: string | null = null,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<Member>> {
    const query = manager
      .getRepository(Member)
      .createQueryBuilder('m')
      .innerJoinAndSelect('m.organization', 'o')
      .where('m.user_id = :userId AND NOT m.disabled', { userId });
    if (onlyOrganization !== null) {
      query.andWhere('m.organization_id = :onlyOrganization', { onlyOrganization });
    }
    return paginate(query, request, {
      keys: [
        { sql: 'o.created_at', of: (m) => m.organization!.createdAt },
        { sql: 'o.id', of: (m) => m.organizationId },
      ],
      direction: 'DESC',
    });
  }

  /** Whether the organization has the site `siteId`. */
  async hasSite(
    organizationId: string,
    siteId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    // Reads sites, owned by sites: that module builds on this one, so orgs cannot ask it
    // whether the site an organization points its default content at is its own.
    const found: unknown[] = await manager.query(
      'SELECT 1 FROM sites WHERE id = $1 AND organization_id = $2',
      [siteId, organizationId],
    );
    return found.length > 0;
  }

  /** Clears the organization's default content when it is the site `siteId`. */
  async clearDefaultContentSite(
    organizationId: string,
    siteId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `UPDATE organizations SET default_content = NULL
          WHERE id = $1 AND default_content->>'site' = $2`,
      [organizationId, siteId],
    );
  }
}
