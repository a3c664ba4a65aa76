import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { ROLES } from '../../platform/policy/roles';

export const ORGANIZATION_TYPES = ['business', 'community'] as const;
export const ORGANIZATION_USE_CASES = [
  'internalDocs',
  'docsSite',
  'audienceControlledSite',
  'productDocs',
  'teamKnowledgeBase',
  'designSystem',
  'openSourceDocs',
  'notes',
  'other',
] as const;
export const COMMUNITY_TYPES = ['nonProfit', 'openSource', 'education'] as const;

class OrganizationUrls {
  @ApiProperty({ format: 'uri' }) location!: string;
  @ApiProperty({ format: 'uri' }) app!: string;
  @ApiPropertyOptional({ format: 'uri' }) logo?: string;
}

class OrganizationTrial {
  @ApiProperty({ enum: ['notapplicable', 'none', 'active', 'ended', 'expired'] }) status!: string;
  @ApiProperty() count!: number;
}

class OrganizationPermissionsResponse {
  @ApiProperty() view!: boolean;
  @ApiProperty({ description: 'May open the organization in the application.' })
  access!: boolean;
  @ApiProperty() admin!: boolean;
  @ApiProperty() ownTeam!: boolean;
  @ApiProperty() createContent!: boolean;
  @ApiProperty() createOpenAPISpec!: boolean;
  @ApiProperty() ingestConversations!: boolean;
  @ApiProperty() viewBilling!: boolean;
  @ApiProperty() listMembers!: boolean;
  @ApiProperty() listTeams!: boolean;
  @ApiProperty() listIntegrations!: boolean;
  @ApiProperty() listInstallations!: boolean;
  @ApiProperty() installIntegration!: boolean;
}

class DefaultContentResponse {
  @ApiProperty({ enum: ['site'] }) type!: 'site';
  @ApiProperty() site!: string;
}

/** GitBook's `Organization`. Billing fields have self-hosted values: no plan limits, no charges. */
export class OrganizationResponse {
  @ApiProperty({ enum: ['organization'] }) object!: 'organization';
  @ApiProperty() id!: string;
  @ApiProperty({ minLength: 2, maxLength: 255 }) title!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: [String] }) emailDomains!: string[];
  @ApiPropertyOptional() hostname?: string;
  @ApiProperty({ enum: ORGANIZATION_TYPES }) type!: string;
  @ApiPropertyOptional({ enum: ORGANIZATION_USE_CASES }) useCase?: string;
  @ApiPropertyOptional({ enum: COMMUNITY_TYPES }) communityType?: string;
  @ApiPropertyOptional({
    enum: ROLES,
    nullable: true,
    description: 'null: new members are guests.',
  })
  defaultRole?: string | null;
  @ApiPropertyOptional({ type: DefaultContentResponse }) defaultContent?: DefaultContentResponse;
  @ApiPropertyOptional({ description: 'SSO enforced organization-wide.' }) sso?: boolean;
  @ApiPropertyOptional({ description: 'AI features enabled.' }) ai?: boolean;
  @ApiProperty() inviteLinks!: boolean;
  @ApiPropertyOptional({
    description: 'Whether audit logs can be read (always: `listOrganizationAuditEvents`).',
  })
  auditLogs?: boolean;
  @ApiProperty({
    description: 'Self-hosted: always the top plan, nothing is billed.',
    example: 'enterprise_2024',
  })
  plan!: string;
  @ApiProperty({
    description: '`{type: "none"}` or `{type: "rules", rules: [...]}`.',
    example: { type: 'none' },
  })
  mergeRules!: object;
  @ApiProperty({ type: OrganizationUrls }) urls!: OrganizationUrls;
  @ApiProperty({ type: OrganizationTrial }) trial!: OrganizationTrial;
  @ApiPropertyOptional() customHostname?: string;
  @ApiProperty({ type: OrganizationPermissionsResponse })
  permissions!: OrganizationPermissionsResponse;
}

/** The fields GitBook requires of an `Organization`: what a reference to one embeds. */
export const ORGANIZATION_SUMMARY_FIELDS = [
  'object',
  'id',
  'title',
  'createdAt',
  'emailDomains',
  'type',
  'inviteLinks',
  'plan',
  'mergeRules',
  'urls',
  'trial',
  'permissions',
] as const;

/**
 * An organization as a link location embeds it (once per location): GitBook's `Organization`
 * with its required fields only, `urls` without `logo`.
 */
export class OrganizationSummaryResponse extends PickType(
  OrganizationResponse,
  ORGANIZATION_SUMMARY_FIELDS,
) {}
