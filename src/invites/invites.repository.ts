import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { Organization } from '../orgs/entities/organization.entity';
import { paginate, PageRequest } from '../platform/pagination/keyset';
import { Page } from '../platform/pagination/page';
import { OrganizationInvite } from './entities/organization-invite.entity';

/** The `organization_invites` table. */
@Injectable()
export class InvitesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A page of the organization's invites with their targets, newest first (inOrganization). */
  pageInOrganization(
    organizationId: string,
    request: PageRequest,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Page<OrganizationInvite>> {
    return paginate(this.inOrganization(manager, organizationId), request, {
      keys: [
        { sql: 'i.created_at', of: (i) => i.createdAt },
        { sql: 'i.id', of: (i) => i.id },
      ],
      direction: 'DESC',
    });
  }

  /**
   * The organization's invite with its target (and, with `withOrganization`, its
   * organization); null when there is none or its target left the organization.
   */
  findInOrganization(
    organizationId: string,
    inviteId: string,
    options: { withOrganization?: boolean } = {},
    manager: EntityManager = this.dataSource.manager,
  ): Promise<OrganizationInvite | null> {
    const query = this.inOrganization(manager, organizationId);
    if (options.withOrganization) query.innerJoinAndSelect('i.organization', 'o');
    return query.andWhere('i.id = :inviteId', { inviteId }).getOne();
  }

  /** Deletes the invites to the collections `collectionIds` and the spaces `spaceIds`. */
  async deleteForContent(
    content: { collectionIds: string[]; spaceIds: string[] },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `DELETE FROM organization_invites
        WHERE collection_id = ANY($1::varchar[]) OR space_id = ANY($2::varchar[])`,
      [content.collectionIds, content.spaceIds],
    );
  }

  /** The organizations whose email domains include `emailDomain` (lower case), oldest first. */
  organizationsWithEmailDomain(
    emailDomain: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Organization[]> {
    // Reads organizations, owned by orgs: orgs has no lookup by email domain; joining by email
    // domain is the invites' business.
    return manager
      .getRepository(Organization)
      .createQueryBuilder('o')
      .where(':domain = ANY(o.email_domains)', { domain: emailDomain })
      .orderBy('o.created_at', 'ASC')
      .addOrderBy('o.id', 'ASC')
      .getMany();
  }

  /** The organization's invites with their targets, leaving out those whose target left it. */
  private inOrganization(
    manager: EntityManager,
    organizationId: string,
  ): SelectQueryBuilder<OrganizationInvite> {
    // Reads spaces and collections (the invites' targets) in the same statement, to leave out
    // the invites whose target left the organization.
    return manager
      .getRepository(OrganizationInvite)
      .createQueryBuilder('i')
      .leftJoinAndSelect('i.space', 's')
      .leftJoinAndSelect('i.collection', 'c')
      .where('i.organization_id = :organizationId', { organizationId })
      .andWhere('(i.space_id IS NULL OR s.organization_id = i.organization_id)')
      .andWhere('(i.collection_id IS NULL OR c.organization_id = i.organization_id)');
  }
}
