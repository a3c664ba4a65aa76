import { SiteExternalLink } from './entities/site-external-link.entity';
import { SiteSection } from './entities/site-section.entity';
import { SiteSectionGroup } from './entities/site-section-group.entity';
import { GitSiteStructure } from './git-site-structure';
import { SiteSpace } from './entities/site-space.entity';
import { SiteExternalLinksController } from './site-external-links.controller';
import { SiteExternalLinksService } from './site-external-links.service';
import { SiteSectionGroupsController } from './site-section-groups.controller';
import { SiteSectionGroupsService } from './site-section-groups.service';
import { SiteSectionsController } from './site-sections.controller';
import { SiteSectionsService } from './site-sections.service';
import { SiteSpacesController } from './site-spaces.controller';
import { SiteSpacesService } from './site-spaces.service';
import { SiteStructureController } from './site-structure.controller';
import { SiteStructurePresenter } from './site-structure.presenter';
import { SiteStructureRepository } from './site-structure.repository';
import { SiteStructureService } from './site-structure.service';
import { SiteStructureStore } from './site-structure.store';

/**
 * The structure of a site (site spaces, sections, section groups, external links), registered in SitesModule:
 * its routes need SitesService, and the site's own routes need SiteStructureService (site
 * spaces on creation, defaults, counts), so both live in one module.
 */
export const STRUCTURE_ENTITIES = [SiteSectionGroup, SiteSection, SiteSpace, SiteExternalLink];

export const STRUCTURE_CONTROLLERS = [
  SiteSpacesController,
  SiteSectionsController,
  SiteSectionGroupsController,
  SiteExternalLinksController,
  SiteStructureController,
];

export const STRUCTURE_PROVIDERS = [
  SiteStructureRepository,
  SiteStructureStore,
  SiteStructurePresenter,
  SiteSpacesService,
  SiteSectionsService,
  SiteSectionGroupsService,
  SiteExternalLinksService,
  SiteStructureService,
  GitSiteStructure,
];
