/** A site's visitor authentication settings, as the lookup needs them. */
export interface VisitorAuthSettings {
  /** The key a site's login service signs visitor tokens with (HS256). */
  privateKey: string;
  /** Where visitors log in: a visitor without a valid token is sent there. */
  fallbackURL: string | null;
  logoutURL: string | null;
}

/**
 * Where the published side reads a site's visitor authentication settings
 * (`getSitePublishingAuthById`); implemented by the publishing-auth service.
 */
export abstract class SiteVisitorAuth {
  /** The site's settings, or null when they were never set up. */
  abstract visitorAuth(siteId: string): Promise<VisitorAuthSettings | null>;
}
