import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DomainError, notFound } from '../../platform/errors/domain-error';
import type { SiteIntegrationScriptResponse } from '../../sites/published/published-site.dto';
import { SiteScripts } from '../../sites/published/site-scripts';
import { SitesService } from '../../sites/sites.service';
import { IntegrationDispatcher } from '../events/integration-dispatcher';
import { IntegrationsRepository } from '../integrations.repository';
import { statusOf } from './installation-views';
import { InstallationsPresenter } from './installations.presenter';
import { type ContentInstallationRow, InstallationsRepository } from './installations.repository';
import { InstallationsService, SCRIPT_SCOPE } from './installations.service';

/** What the script's answer becomes when it says nothing of caching: a short public cache. */
const DEFAULT_CACHE_CONTROL = 'public, max-age=300';
const JAVASCRIPT = 'application/javascript; charset=utf-8';
/** The content types browsers run as a classic script; any other is replaced by JAVASCRIPT. */
const JAVASCRIPT_TYPE = /^(application|text)\/(x-)?(javascript|ecmascript)\s*(;|$)/i;

type SiteInstallationRow = ContentInstallationRow & { kind: 'site' };

/** A site script as the integration answered it, ready to serve. */
export interface ServedSiteScript {
  body: Buffer;
  contentType: string;
  cacheControl: string;
}

/**
 * The scripts installed integrations inject in a site's pages (GitBook's `site:script:inject`):
 * the list a renderer reads (`listSiteIntegrationScripts`, and the published site's `scripts`
 * through the sites module's SiteScripts port), and each script, which the integration makes
 * when asked: GitBook's `fetch_published_script` event, answered as JavaScript.
 */
@Injectable()
export class SiteScriptsService implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly installations: InstallationsService,
    private readonly repository: InstallationsRepository,
    private readonly integrations: IntegrationsRepository,
    private readonly sites: SitesService,
    private readonly presenter: InstallationsPresenter,
    private readonly dispatcher: IntegrationDispatcher,
    private readonly siteScripts: SiteScripts,
  ) {}

  onModuleInit(): void {
    this.siteScripts.register((siteId) => this.list(siteId));
  }

  /** The scripts of the site's active installations of integrations with the scope. */
  async list(siteId: string): Promise<SiteIntegrationScriptResponse[]> {
    const views = await this.installations.siteScripts(siteId);
    return views.map((view) => this.presenter.script(view));
  }

  /**
   * The script of the integration's installation on the site, as its script answers
   * `fetch_published_script` with the installation and the site installation (their
   * configurations) in its environment. 404 unless the site installation is active, its
   * integration has `site:script:inject`, and the site is published; 502 when the script does not
   * answer 2xx (the event records why).
   */
  async fetch(
    integrationName: string,
    installationId: string,
    siteId: string,
  ): Promise<ServedSiteScript> {
    const view = await this.servedInstallation(integrationName, installationId, siteId);
    if (!view) throw notFound('Script');
    const result = await this.dispatcher.dispatch(
      view.integration,
      { type: 'fetch_published_script', installationId, siteId },
      {
        installationId,
        organizationId: view.installation.organizationId,
        environment: {
          installation: this.presenter.installation({
            integration: view.integration,
            installation: view.installation,
            spaces: 0,
          }),
          siteInstallation: this.presenter.siteInstallation(view),
        },
      },
    );
    const response = result.response;
    if (!response || response.status < 200 || response.status >= 300) {
      throw new DomainError(
        'bad_gateway',
        'IntegrationFailed',
        `${integrationName} did not answer with its script (${
          response ? `it answered ${response.status}` : 'no answer'
        }); its events say more.`,
      );
    }
    const headers = Object.fromEntries(
      Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), value]),
    );
    const contentType = headers['content-type'];
    return {
      body: response.body,
      contentType: contentType && JAVASCRIPT_TYPE.test(contentType) ? contentType : JAVASCRIPT,
      cacheControl: headers['cache-control'] || DEFAULT_CACHE_CONTROL,
    };
  }

  /** The site installation whose script is served, or null: see `fetch`. */
  private async servedInstallation(
    integrationName: string,
    installationId: string,
    siteId: string,
  ): Promise<SiteInstallationRow | null> {
    const integration = await this.integrations.findByName(integrationName);
    if (!integration?.scopes.includes(SCRIPT_SCOPE)) return null;
    const installation = await this.repository.findInstallation(integration.id, installationId);
    if (!installation) return null;
    const row = await this.repository.findContent('site', installation.id, siteId);
    if (!row) return null;
    const view: SiteInstallationRow = { kind: 'site', integration, installation, row };
    if (statusOf(view) !== 'active') return null;
    // The row goes with its site (ON DELETE CASCADE): the site is there.
    const site = await this.sites.findForOrganization(
      this.dataSource.manager,
      installation.organizationId,
      siteId,
    );
    return site.published ? view : null;
  }
}
