import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';

/** Absolute links for `urls` objects: `location` (API, PUBLIC_URL) and `app` (APP_URL). */
@Injectable()
export class UrlBuilder {
  // Settings do not change while the app runs: read once, not for each of a page's links.
  private readonly apiBase: string;
  private readonly appBase: string;
  private readonly integrationsBase: string;

  constructor(config: AppConfig) {
    this.apiBase = `${config.publicUrl}/v1/`;
    this.integrationsBase = `${config.integrationsUrl ?? config.publicUrl}/v1/`;
    this.appBase = `${config.appUrl}/`;
  }

  /** `api('orgs', id)` → `https://api.example.com/v1/orgs/<id>` */
  api(...segments: string[]): string {
    return this.apiBase + pathOf(segments);
  }

  /**
   * An integration's public endpoint: on INTEGRATIONS_URL's origin when there is one, else as
   * `api(...)`.
   */
  integrationEndpoint(...segments: string[]): string {
    return this.integrationsBase + pathOf(segments);
  }

  /** `app('o', id)` → `https://app.example.com/o/<id>` */
  app(...segments: string[]): string {
    return this.appBase + pathOf(segments);
  }

  /** `under(app('o', id), 'x')` → `https://app.example.com/o/<id>/x`: one URL below another. */
  under(url: string, ...segments: string[]): string {
    return segments.length === 0 ? url : `${url}/${pathOf(segments)}`;
  }
}

const pathOf = (segments: string[]) => segments.map(encodeURIComponent).join('/');
