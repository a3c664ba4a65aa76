import { Injectable } from '@nestjs/common';
import type { Role } from '../platform/policy/roles';
import { UrlBuilder } from '../platform/urls/url-builder';
import { OrganizationResponse, OrganizationSummaryResponse } from './dto/organization.response';
import { Organization } from './entities/organization.entity';
import { organizationPermissions } from './organization-permissions';

/** Self-hosted Bindery has no plans or trials: every organization has every feature, unbilled. */
const SELF_HOSTED_PLAN = 'enterprise_2024';

@Injectable()
export class OrganizationsPresenter {
  constructor(private readonly urls: UrlBuilder) {}

  /** The organization as seen by a member with `role` (null = guest). */
  present(organization: Organization, role: Role | null): OrganizationResponse {
    return {
      object: 'organization',
      id: organization.id,
      title: organization.title,
      createdAt: organization.createdAt.toISOString(),
      emailDomains: organization.emailDomains,
      ...(organization.hostname ? { hostname: organization.hostname } : {}),
      type: organization.type,
      ...(organization.useCase ? { useCase: organization.useCase } : {}),
      ...(organization.communityType ? { communityType: organization.communityType } : {}),
      defaultRole: organization.defaultRole,
      ...(organization.defaultContent ? { defaultContent: organization.defaultContent } : {}),
      sso: organization.sso,
      ai: organization.ai,
      inviteLinks: organization.inviteLinks,
      // Every organization has its audit log (GET …/audit-events, organization admins).
      auditLogs: true,
      plan: SELF_HOSTED_PLAN,
      mergeRules: organization.mergeRules,
      urls: {
        location: this.urls.api('orgs', organization.id),
        app: this.urls.app('o', organization.id),
        ...(organization.logoUrl ? { logo: organization.logoUrl } : {}),
      },
      trial: { status: 'notapplicable', count: 0 },
      ...(organization.customHostname ? { customHostname: organization.customHostname } : {}),
      permissions: organizationPermissions(role),
    };
  }

  /** What a reference to the organization embeds: the fields GitBook requires, no more. */
  summary(organization: Organization, role: Role | null): OrganizationSummaryResponse {
    const full = this.present(organization, role);
    return {
      object: full.object,
      id: full.id,
      title: full.title,
      createdAt: full.createdAt,
      emailDomains: full.emailDomains,
      type: full.type,
      inviteLinks: full.inviteLinks,
      plan: full.plan,
      mergeRules: full.mergeRules,
      urls: { location: full.urls.location, app: full.urls.app },
      trial: full.trial,
      permissions: full.permissions,
    };
  }
}
