import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { invalidInput, notFound } from '../../platform/errors/domain-error';
import { Site } from '../entities/site.entity';
import { SitesService } from '../sites.service';
import {
  applyOverridePatch,
  completeCustomization,
  Customization,
  customizationProblem,
  mergeCustomization,
  OverrideProblem,
} from './customization';

const siteSpaceNotFound = () => notFound('Site space');

/** The customization of a site, and what each of its site spaces overrides of it. */
@Injectable()
export class SiteCustomizationService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sites: SitesService,
    private readonly clock: Clock,
  ) {}

  /** The site's customization: as written, or the defaults when never written. */
  async getForSite(organizationId: string, siteId: string): Promise<Customization> {
    const site = await this.sites.findForOrganization(
      this.dataSource.manager,
      organizationId,
      siteId,
    );
    return siteCustomization(site);
  }

  /** Replaces the site's customization; absent settings take their defaults. */
  putForSite(organizationId: string, siteId: string, body: Customization): Promise<Customization> {
    assertObject(body);
    const complete = completeCustomization(body);
    const problem = customizationProblem(complete);
    if (problem !== null) throw invalidInput(problem);
    return this.dataSource.transaction(async (tx) => {
      const site = await this.sites.findForOrganization(tx, organizationId, siteId);
      await tx.update(
        Site,
        { id: site.id },
        { customization: complete, updatedAt: this.clock.now() },
      );
      return complete;
    });
  }

  /** The customization a site space shows: the site's, with the space's overrides. */
  async getForSiteSpace(
    organizationId: string,
    siteId: string,
    siteSpaceId: string,
  ): Promise<Customization> {
    const manager = this.dataSource.manager;
    const site = await this.sites.findForOrganization(manager, organizationId, siteId);
    await this.assertSiteSpace(manager, site.id, siteSpaceId);
    return siteSpaceCustomization(site, siteSpaceId);
  }

  /** Changes the site space's overrides (null removes one) and returns what it then shows. */
  overrideForSiteSpace(
    organizationId: string,
    siteId: string,
    siteSpaceId: string,
    patch: Customization,
  ): Promise<Customization> {
    assertObject(patch);
    return this.dataSource.transaction(async (tx) => {
      const site = await this.sites.findForOrganization(tx, organizationId, siteId);
      await this.assertSiteSpace(tx, site.id, siteSpaceId);
      let overrides: Customization;
      try {
        overrides = applyOverridePatch(
          (site.siteSpaceCustomizations[siteSpaceId] as Customization | undefined) ?? {},
          patch,
        );
      } catch (error) {
        if (error instanceof OverrideProblem) throw invalidInput(error.message);
        throw error;
      }
      const effective = mergeCustomization(siteCustomization(site), overrides);
      const problem = customizationProblem(effective);
      if (problem !== null) throw invalidInput(problem);
      // One statement, so concurrent overrides of different site spaces do not lose each other.
      await tx.query(
        `UPDATE sites SET site_space_customizations =
           CASE WHEN $2::jsonb = '{}'::jsonb THEN site_space_customizations - $1::text
                ELSE site_space_customizations || jsonb_build_object($1::text, $2::jsonb) END,
           updated_at = $3
         WHERE id = $4`,
        [siteSpaceId, JSON.stringify(overrides), this.clock.now(), site.id],
      );
      return effective;
    });
  }

  /** Removes the site space's overrides: it shows the site's customization again. */
  async resetSiteSpace(organizationId: string, siteId: string, siteSpaceId: string): Promise<void> {
    const manager = this.dataSource.manager;
    const site = await this.sites.findForOrganization(manager, organizationId, siteId);
    await this.assertSiteSpace(manager, site.id, siteSpaceId);
    await manager.query(
      `UPDATE sites SET site_space_customizations = site_space_customizations - $1::text
        WHERE id = $2 AND site_space_customizations ? $1::text`,
      [siteSpaceId, site.id],
    );
  }

  private async assertSiteSpace(
    manager: EntityManager,
    siteId: string,
    siteSpaceId: string,
  ): Promise<void> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM site_spaces WHERE id = $1 AND site_id = $2`,
      [siteSpaceId, siteId],
    );
    if (rows.length === 0) throw siteSpaceNotFound();
  }
}

function assertObject(body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidInput('The body must be a JSON object of customization settings.');
  }
}

/** The site's customization, complete. */
export function siteCustomization(site: Site): Customization {
  return site.customization === null
    ? completeCustomization({})
    : completeCustomization(site.customization as Customization);
}

/** What a site space of the site shows: the site's customization and its overrides. */
export function siteSpaceCustomization(site: Site, siteSpaceId: string): Customization {
  const overrides = site.siteSpaceCustomizations[siteSpaceId];
  const base = siteCustomization(site);
  return overrides ? mergeCustomization(base, overrides as Customization) : base;
}
