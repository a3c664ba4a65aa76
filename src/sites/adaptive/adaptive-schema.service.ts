import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { invalidInput, notFound } from '../../platform/errors/domain-error';
import { Revalidation } from '../../platform/revalidation/revalidation.service';
import { Site } from '../entities/site.entity';
import { SitesService } from '../sites.service';
import {
  adaptiveSchemaProblem,
  normaliseAdaptiveSchema,
  TemplateCondition,
  templateConditions,
} from './adaptive-schema';
import { SiteAdaptiveSchemaResponse } from './adaptive-schema.dto';

/** The visitor schema of an adaptive-content site, and the conditions it suggests. */
@Injectable()
export class SiteAdaptiveSchemaService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sites: SitesService,
    private readonly clock: Clock,
    private readonly revalidation: Revalidation,
  ) {}

  /** 404 `Site adaptive schema` until the first PUT. */
  async get(organizationId: string, siteId: string): Promise<SiteAdaptiveSchemaResponse> {
    const site = await this.sites.findForOrganization(
      this.dataSource.manager,
      organizationId,
      siteId,
    );
    if (site.adaptiveSchema === null || site.adaptiveSchemaUpdatedAt === null) {
      throw notFound('Site adaptive schema');
    }
    return present(site.adaptiveSchema, site.adaptiveSchemaUpdatedAt);
  }

  /** Replaces the schema; 400 naming what is wrong when it is not an acceptable one. */
  put(
    organizationId: string,
    siteId: string,
    jsonSchema: Record<string, unknown>,
  ): Promise<SiteAdaptiveSchemaResponse> {
    const problem = adaptiveSchemaProblem(jsonSchema);
    if (problem !== null) throw invalidInput(problem);
    const stored = normaliseAdaptiveSchema(jsonSchema);
    return this.dataSource.transaction(async (tx) => {
      const site = await this.sites.findForOrganization(tx, organizationId, siteId);
      const now = this.clock.now();
      await tx.update(
        Site,
        { id: site.id },
        { adaptiveSchema: stored, adaptiveSchemaUpdatedAt: now, updatedAt: now },
      );
      await this.revalidation.site(site.id, tx);
      return present(stored, now);
    });
  }

  /** Suggested conditions for the schema's claims; none before the first PUT. */
  async templateConditions(organizationId: string, siteId: string): Promise<TemplateCondition[]> {
    const site = await this.sites.findForOrganization(
      this.dataSource.manager,
      organizationId,
      siteId,
    );
    return site.adaptiveSchema === null
      ? []
      : templateConditions(site.adaptiveSchema as Record<string, unknown>);
  }
}

function present(jsonSchema: object, updatedAt: Date): SiteAdaptiveSchemaResponse {
  return { object: 'site-adaptive-schema', jsonSchema, updatedAt: updatedAt.toISOString() };
}
