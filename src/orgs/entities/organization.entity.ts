import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Role } from '../../platform/policy/roles';

export type OrganizationType = 'business' | 'community';
export type MergeRulesConfiguration = { type: 'none' } | { type: 'rules'; rules: MergeRule[] };
export interface MergeRule {
  rule: string;
  users?: string[];
  expression?: string;
}
export interface OnboardingPreferences {
  source: string | null;
  audience: string | null;
  interests: string[];
}
export interface DefaultContent {
  type: 'site';
  site: string;
}

@Entity('organizations')
export class Organization {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_organizations' })
  id!: string;

  @Column({ type: 'varchar', length: 255 })
  title!: string;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  emailDomains!: string[];

  /** The default `<hostname>.<platform domain>` host for public content. */
  @Index('UQ_organizations_hostname', { unique: true })
  @Column({ type: 'varchar', length: 32, nullable: true })
  hostname!: string | null;

  @Column({ type: 'varchar', length: 16, default: 'business' })
  type!: OrganizationType;

  @Column({ type: 'varchar', length: 32, nullable: true })
  useCase!: string | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  communityType!: string | null;

  /** Role of new members; null makes them guests. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  defaultRole!: Role | null;

  @Column({ type: 'jsonb', nullable: true })
  defaultContent!: DefaultContent | null;

  /** SSO enforced organization-wide. */
  @Column({ type: 'boolean', default: false })
  sso!: boolean;

  @Column({ type: 'boolean', default: true })
  ai!: boolean;

  @Column({ type: 'boolean', default: true })
  inviteLinks!: boolean;

  @Column({ type: 'jsonb' })
  mergeRules!: MergeRulesConfiguration;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  logoUrl!: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  customHostname!: string | null;

  /** As given at creation (source, audience, interests), for the onboarding of a web app. */
  @Column({ type: 'jsonb', nullable: true })
  onboardingPreferences!: OnboardingPreferences | null;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;
}
