import { Injectable } from '@nestjs/common';
import { UrlBuilder } from '../../platform/urls/url-builder';
import type { Site } from '../entities/site.entity';
import { CustomHostnameResponse } from './dto/custom-hostname.response';

/** A site's custom hostname as GitBook's `CustomHostname`. */
@Injectable()
export class CustomHostnamesPresenter {
  constructor(private readonly urls: UrlBuilder) {}

  present(site: Site & { hostname: string }): CustomHostnameResponse {
    return {
      object: 'custom-hostname',
      hostname: site.hostname,
      target: { type: 'site', site: site.id },
      isActive: site.hostnameStatus === 'live',
      ...(site.hostnameStatus !== null ? { status: site.hostnameStatus } : {}),
      urls: { location: this.urls.api('custom-hostnames', site.hostname) },
    };
  }
}
