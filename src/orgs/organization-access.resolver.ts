import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { entityFromRow } from '../platform/database/entity-from-row';
import type { ResolvedAccess } from '../platform/policy/access';
import type { Role } from '../platform/policy/roles';
import { AccessResolver, PolicyService } from '../platform/policy/policy.service';
import { Organization } from './entities/organization.entity';
import { OrganizationsRepository } from './organizations.repository';

/** A user's access to an organization is its membership: its role, or null for a guest. */
@Injectable()
export class OrganizationAccessResolver implements AccessResolver, OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly organizations: OrganizationsRepository,
    private readonly policy: PolicyService,
  ) {}

  onModuleInit(): void {
    this.policy.register('organization', this);
  }

  /**
   * One query, in plain SQL because it runs on every organization request: the membership
   * and the organization it opens, which handlers then use.
   */
  async resolve(
    userId: string,
    organizationId: string,
  ): Promise<ResolvedAccess<Organization> | null> {
    const rows = await this.organizations.accessRows(organizationId, userId);
    if (rows.length === 0) return null;
    return {
      resource: 'organization',
      id: organizationId,
      organizationId,
      role: rows[0].member_role as Role | null,
      entity: entityFromRow(this.dataSource, Organization, rows[0]),
    };
  }
}
