import { Injectable } from '@nestjs/common';
import type { SiteIntegrationScriptResponse } from './published-site.dto';

/** The scripts a site's pages load, as GitBook's `SiteIntegrationScript`s. */
export type SiteScriptsFinder = (siteId: string) => Promise<SiteIntegrationScriptResponse[]>;

/**
 * The port through which the published site hears of the scripts its installed integrations
 * inject (`site:script:inject`): the integrations' installations sit above sites, and register
 * the finder when they start. Without one, a site loads no script.
 */
@Injectable()
export class SiteScripts {
  private finder?: SiteScriptsFinder;

  register(finder: SiteScriptsFinder): void {
    if (this.finder) throw new Error('A site scripts finder is already registered');
    this.finder = finder;
  }

  forSite(siteId: string): Promise<SiteIntegrationScriptResponse[]> {
    return this.finder ? this.finder(siteId) : Promise.resolve([]);
  }
}
