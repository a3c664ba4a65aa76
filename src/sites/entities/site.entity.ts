import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Organization } from '../../orgs/entities/organization.entity';

/** GitBook's `SiteType` (0.146.0). */
export const SITE_TYPES = [
  'basic',
  'premium',
  'ultimate',
  'sponsored',
  'legacy-basic',
  'legacy-premium',
] as const;
export type SiteType = (typeof SITE_TYPES)[number];

/** GitBook's `SiteVisibility`. */
export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export type SiteVisibility = (typeof SITE_VISIBILITIES)[number];

/**
 * GitBook's `CustomHostnameStatus` as Bindery uses it: `live` (the DNS points at Bindery),
 * `dns_wrong_cname` (a CNAME to another host), `dns_no_cname` (neither a CNAME nor the TXT
 * record), `internal_error` (the DNS servers did not answer).
 */
export const CUSTOM_HOSTNAME_STATUSES = [
  'live',
  'dns_wrong_cname',
  'dns_no_cname',
  'internal_error',
] as const;
export type CustomHostnameStatus = (typeof CUSTOM_HOSTNAME_STATUSES)[number];

/** GitBook's `SiteAgentsContext`. */
export const SITE_AGENTS_CONTEXTS = ['excluded', 'included'] as const;
export type SiteAgentsContext = (typeof SITE_AGENTS_CONTEXTS)[number];

/** GitBook's site `icon` (a `CustomizationFavicon`): light/dark URLs, an emoji, or nothing set. */
export type SiteIcon = { icon: { light: string; dark: string } } | { emoji: string } | object;

/**
 * A JSON object as stored in a jsonb column (validated on the way in). Typed as `object`, not a
 * recursive JSON type, which TypeORM's deep partial types cannot expand.
 */
export type JsonObject = object;

/** What a site space overrides of its site's customization (validated on PATCH). */
export type SiteSpaceCustomizationOverride = { title?: string } & JsonObject;

/** The adaptive-content visitor schema (GitBook's `SiteAdaptiveJSONSchema`), validated on PUT. */
export type SiteAdaptiveJSONSchema = JsonObject;

/**
 * A docs site of an organization: what is published (its site spaces and sections, in the
 * structure tables), to whom (`visibility`), where (`hostname`, `basename`, `proxy`) and how it
 * looks (`customization`). The default section and site space are plain ids, kept true by the
 * structure code that owns those rows.
 */
@Entity('sites')
@Index('IDX_sites_organization_id_created_at', ['organizationId', 'createdAt', 'id'])
// The published-content lookup finds sites by proxy origin, and by organization and basename.
@Index('IDX_sites_proxy', ['proxy'], { where: `"proxy" IS NOT NULL` })
@Index('IDX_sites_organization_id_basename', ['organizationId', 'basename'])
// The scheduled recheck of custom hostnames takes the least recently checked first.
@Index('IDX_sites_hostname_checked_at', ['hostnameCheckedAt'], { where: `"hostname" IS NOT NULL` })
export class Site {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_sites' })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  organizationId!: string;

  @ManyToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'FK_sites_organization_id' })
  organization?: Organization;

  @Column({ type: 'varchar', length: 32, default: 'basic' })
  type!: SiteType;

  @Column({ type: 'varchar', length: 128 })
  title!: string;

  @Column({ type: 'varchar', length: 16, default: 'public' })
  visibility!: SiteVisibility;

  @Column({ type: 'boolean', default: false })
  published!: boolean;

  /** Custom hostname (`docs.example.com`), unique across the instance. */
  @Index('UQ_sites_hostname', { unique: true })
  @Column({ type: 'varchar', length: 512, nullable: true })
  hostname!: string | null;

  /**
   * Where the DNS check of `hostname` stands, as GitBook's CustomHostnameStatus: `live` once its
   * DNS points at Bindery (custom-hostnames/hostname-dns.ts), which alone the published lookup
   * honours; null while unchecked, and without a hostname.
   */
  @Column({ type: 'varchar', length: 32, nullable: true })
  hostnameStatus!: CustomHostnameStatus | null;

  /** When `hostname`'s DNS was last checked; null while unchecked. */
  @Column({ type: 'timestamptz', nullable: true })
  hostnameCheckedAt!: Date | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  basename!: string | null;

  /** The proxy origin as given (`example.com/docs`); served as `{origin, target}`. */
  @Column({ type: 'varchar', length: 512, nullable: true })
  proxy!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  icon!: SiteIcon | null;

  @Column({ type: 'boolean', default: false })
  adaptiveContent!: boolean;

  @Column({ type: 'varchar', length: 16, default: 'included' })
  agentsContext!: SiteAgentsContext;

  /** The default section (structure tables); null when the site has no sections. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  defaultSiteSectionId!: string | null;

  /** The default site space at the root (a site without sections); null otherwise. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  defaultSiteSpaceId!: string | null;

  /**
   * Null until the first PUT of the adaptive schema. `json`, not `jsonb`: it keeps the author's
   * order of claims, which template conditions follow.
   */
  @Column({ type: 'json', nullable: true })
  adaptiveSchema!: SiteAdaptiveJSONSchema | null;

  @Column({ type: 'timestamptz', nullable: true })
  adaptiveSchemaUpdatedAt!: Date | null;

  /** The site's customization as last written; null means the defaults. */
  @Column({ type: 'jsonb', nullable: true })
  customization!: JsonObject | null;

  /**
   * Per site space, what its customization overrides of the site's (site-space id → partial
   * customization). Entries of site spaces since removed are ignored by readers.
   */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  siteSpaceCustomizations!: Record<string, SiteSpaceCustomizationOverride>;

  @Column({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz' })
  updatedAt!: Date;
}
