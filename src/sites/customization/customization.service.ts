import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { invalidInput, notFound } from '../../platform/errors/domain-error';
import { Revalidation } from '../../platform/revalidation/revalidation.service';
import { Site } from '../entities/site.entity';
import { SitesRepository } from '../sites.repository';
import { SitesService } from '../sites.service';
import { SiteStructureRepository } from '../structure/site-structure.repository';
import { CustomizationFonts } from './customization-fonts';
import {
  applyOverridePatch,
  completeCustomization,
  Customization,
  customizationProblem,
  mergeCustomization,
  OverrideProblem,
} from './customization';

const siteSpaceNotFound = () => notFound('Site space');

/**
 * The customization of a site, and what each of its site spaces overrides of it. The renderer
 * revalidates the site when either changes.
 */
@Injectable()
export class SiteCustomizationService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sites: SitesService,
    private readonly sitesRepository: SitesRepository,
    private readonly structureRepository: SiteStructureRepository,
    private readonly clock: Clock,
    private readonly revalidation: Revalidation,
    private readonly fonts: CustomizationFonts,
  ) {}

  /** The site's customization: as written, or the defaults when never written. */
  async getForSite(organizationId: string, siteId: string): Promise<Customization> {
    const site = await this.sites.findForOrganization(
      this.dataSource.manager,
      organizationId,
      siteId,
    );
    return siteCustomization(await this.fonts.current(site));
  }

  /**
   * Replaces the site's customization; absent settings take their defaults. A custom font is
   * named by its `id` (CustomizationFonts).
   */
  async putForSite(
    organizationId: string,
    siteId: string,
    body: Customization,
  ): Promise<Customization> {
    assertObject(body);
    const complete = completeCustomization(await this.fonts.written(organizationId, body));
    const problem = customizationProblem(complete);
    if (problem !== null) throw invalidInput(problem);
    return this.dataSource.transaction(async (tx) => {
      const site = await this.sites.findForOrganization(tx, organizationId, siteId);
      await tx.update(
        Site,
        { id: site.id },
        { customization: complete, updatedAt: this.clock.now() },
      );
      await this.revalidation.site(site.id, tx);
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
    return siteSpaceCustomization(await this.fonts.current(site), siteSpaceId);
  }

  /** Changes the site space's overrides (null removes one) and returns what it then shows. */
  async overrideForSiteSpace(
    organizationId: string,
    siteId: string,
    siteSpaceId: string,
    body: Customization,
  ): Promise<Customization> {
    assertObject(body);
    const patch = await this.fonts.written(organizationId, body);
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
      site.siteSpaceCustomizations = { ...site.siteSpaceCustomizations, [siteSpaceId]: overrides };
      const effective = siteSpaceCustomization(await this.fonts.current(site, tx), siteSpaceId);
      const problem = customizationProblem(effective);
      if (problem !== null) throw invalidInput(problem);
      // One statement, so concurrent overrides of different site spaces do not lose each other.
      await this.sitesRepository.setSiteSpaceCustomization(
        site.id,
        siteSpaceId,
        overrides,
        this.clock.now(),
        tx,
      );
      await this.revalidation.site(site.id, tx);
      return effective;
    });
  }

  /** Removes the site space's overrides: it shows the site's customization again. */
  async resetSiteSpace(organizationId: string, siteId: string, siteSpaceId: string): Promise<void> {
    const manager = this.dataSource.manager;
    const site = await this.sites.findForOrganization(manager, organizationId, siteId);
    await this.assertSiteSpace(manager, site.id, siteSpaceId);
    await this.sitesRepository.removeSiteSpaceCustomization(site.id, siteSpaceId, manager);
    await this.revalidation.site(site.id);
  }

  private async assertSiteSpace(
    manager: EntityManager,
    siteId: string,
    siteSpaceId: string,
  ): Promise<void> {
    if (!(await this.structureRepository.hasSiteSpace(siteId, siteSpaceId, manager))) {
      throw siteSpaceNotFound();
    }
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
