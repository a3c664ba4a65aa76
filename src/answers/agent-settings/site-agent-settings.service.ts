import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { EMPTY_DOCUMENT } from '../../content-engine/documents/document-validation';
import { Clock } from '../../platform/clock/clock';
import type { UpdateSiteAgentSettingsDto } from './dto/site-agent-settings.dto';
import {
  SiteAgentSettings,
  type SiteAgentSettingsValue,
} from './entities/site-agent-settings.entity';

/** A site's agent settings before they are written: nothing scanned, no instructions. */
export const DEFAULT_SITE_AGENT_SETTINGS: SiteAgentSettingsValue = {
  scans: { topics: 'never' },
  findings: { changeRequests: 'never' },
  editing: { customInstructions: EMPTY_DOCUMENT },
};

/** A site's agent settings (GitBook's `SiteAgentSettings`), stored as given. */
@Injectable()
export class SiteAgentSettingsService {
  constructor(
    @InjectRepository(SiteAgentSettings)
    private readonly settings: Repository<SiteAgentSettings>,
    private readonly clock: Clock,
  ) {}

  /** The site's settings; null when never written (the defaults apply). */
  get(siteId: string): Promise<SiteAgentSettings | null> {
    return this.settings.findOneBy({ siteId });
  }

  /** Replaces the settings (creating them on the first write). */
  async put(
    siteId: string,
    userId: string,
    body: UpdateSiteAgentSettingsDto,
  ): Promise<SiteAgentSettings> {
    const written = this.settings.create({
      siteId,
      settings: {
        scans: { topics: body.scans.topics },
        findings: { changeRequests: body.findings.changeRequests },
        editing: { customInstructions: body.editing.customInstructions },
      },
      updatedAt: this.clock.now(),
      updatedBy: userId,
    });
    // A document's open-ended `data` is beyond TypeORM's partial-entity type; it is stored as is.
    await this.settings.upsert(written as QueryDeepPartialEntity<SiteAgentSettings>, ['siteId']);
    return written;
  }
}
