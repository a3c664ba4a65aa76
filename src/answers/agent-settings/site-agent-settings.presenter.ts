import { Injectable } from '@nestjs/common';
import { UrlBuilder } from '../../platform/urls/url-builder';
import type { SiteTarget } from '../../sites/site-access.policy';
import type { SiteAgentSettingsResponse } from './dto/site-agent-settings.dto';
import type { SiteAgentSettings } from './entities/site-agent-settings.entity';
import { DEFAULT_SITE_AGENT_SETTINGS } from './site-agent-settings.service';

@Injectable()
export class SiteAgentSettingsPresenter {
  constructor(private readonly urls: UrlBuilder) {}

  /** GitBook's `SiteAgentSettings`; never written (`null`): the defaults, with no `updatedAt`. */
  present(target: SiteTarget, stored: SiteAgentSettings | null): SiteAgentSettingsResponse {
    const value = stored?.settings ?? DEFAULT_SITE_AGENT_SETTINGS;
    return {
      object: 'site-agent-settings',
      scans: { topics: value.scans.topics },
      findings: { changeRequests: value.findings.changeRequests },
      editing: { customInstructions: value.editing.customInstructions },
      ...(stored ? { updatedAt: stored.updatedAt.toISOString() } : {}),
      ...(stored?.updatedBy ? { updatedBy: stored.updatedBy } : {}),
      urls: {
        location: this.urls.api(
          'orgs',
          target.organization.id,
          'sites',
          target.site.id,
          'agent-settings',
        ),
      },
    };
  }
}
