import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { entityFromRow } from '../platform/database/entity-from-row';
import { preparedQuery } from '../platform/database/prepared-query';
import type { ResolvedAccess } from '../platform/policy/access';
import type { Role } from '../platform/policy/roles';
import { AccessResolver, PolicyService } from '../platform/policy/policy.service';
import { Organization } from './entities/organization.entity';

/** A user's access to an organization is its membership: its role, or null for a guest. */
@Injectable()
export class OrganizationAccessResolver implements AccessResolver, OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
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
    const rows = await preparedQuery(
      this.dataSource,
      'bindery_resolve_organization',
      `SELECT m.role AS member_role, o.*
         FROM organization_members m JOIN organizations o ON o.id = m.organization_id
        WHERE m.organization_id = $1 AND m.user_id = $2 AND NOT m.disabled`,
      [organizationId, userId],
    );
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
