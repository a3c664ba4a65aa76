/** GitBook's `SiteFeatureKey` (0.146.0). */
export const SITE_FEATURE_KEYS = [
  'sites-adaptive-content',
  'sites-advanced-customization',
  'sites-advanced-insights',
  'sites-ads',
  'sites-ai-search',
  'sites-ai-assistant',
  'sites-embed',
  'sites-api-playground',
  'sites-basic-customization',
  'sites-custom-domain',
  'sites-custom-fonts',
  'sites-custom-subdirectory',
  'sites-full-text-search',
  'sites-multivariant-site',
  'sites-no-custom-domain',
  'sites-page-feedback',
  'sites-page-traffic-insights',
  'sites-pdf-export',
  'sites-preview-deployments',
  'sites-public-visibility',
  'sites-redirects',
  'sites-search-insights',
  'sites-sections',
  'sites-seo',
  'sites-share-links',
  'sites-unlisted-visibility',
  'sites-user-contribution',
  'sites-visitor-authentication',
  'sites-visitors',
] as const;
export type SiteFeatureKey = (typeof SITE_FEATURE_KEYS)[number];

export interface SiteFeature {
  id: SiteFeatureKey;
  plan: 'ultimate';
  frozen: false;
}

/**
 * Not features of a self-hosted site: ads (Bindery serves none, `ads.status` is `disabled`)
 * and the restriction `no-custom-domain` (every site may have a custom hostname).
 */
const NOT_SELF_HOSTED = new Set<SiteFeatureKey>(['sites-ads', 'sites-no-custom-domain']);

/**
 * A self-hosted instance has no plans to sell: every site has every feature, on the highest
 * plan, none frozen (whatever the site's `type`).
 */
export const SELF_HOSTED_SITE_FEATURES: readonly SiteFeature[] = SITE_FEATURE_KEYS.filter(
  (id) => !NOT_SELF_HOSTED.has(id),
).map((id) => ({ id, plan: 'ultimate', frozen: false }));

/** GitBook's `SiteAds` for a self-hosted site: ads are off. */
export const SELF_HOSTED_SITE_ADS = { status: 'disabled', topic: 'webdev', zoneId: '' } as const;
