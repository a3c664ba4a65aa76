import {
  AddSiteSectionDto,
  ListSiteSectionsQueryDto,
  MoveSiteSectionDto,
  UpdateSiteSectionDto,
} from './dto/site-section.dto';
import { SiteSectionResponse } from './dto/site-structure.response';
import { SiteSectionsService } from './site-sections.service';
import { StructureNodeController } from './structure-node.controller';

export class SiteSectionsController extends StructureNodeController({
  segment: 'sections',
  namesSpace: ['add'],
  resource: 'siteSection',
  param: 'siteSectionId',
  tag: 'site-sections',
  service: SiteSectionsService,
  response: SiteSectionResponse,
  classes: {
    list: ListSiteSectionsQueryDto,
    add: AddSiteSectionDto,
    update: UpdateSiteSectionDto,
    move: MoveSiteSectionDto,
  },
  operations: {
    list: {
      operationId: 'listSiteSections',
      summary: 'List all site sections',
      description:
        'Every section of the site (grouped or not), in the order a reader meets them (as moves and sorts set it).',
    },
    add: {
      operationId: 'addSectionToSite',
      summary: 'Add a section to a site',
      description:
        "At the end of the site root, titled `title` (else the space's title), with the space as " +
        'its first, default variant. The first section of a site is its default section. A site ' +
        'without sections whose root has site spaces first turns them into a section of their ' +
        'own (named after the site, the default section): the new section comes after it.',
    },
    update: {
      operationId: 'updateSiteSectionById',
      summary: 'Update a site section',
      description:
        'Absent fields are unchanged; null removes `condition`, `icon` or `description`. 409 ' +
        'when `path` is the path of another section of the site.',
    },
    remove: {
      operationId: 'deleteSiteSectionById',
      summary: 'Delete a site section',
      description:
        'With its site spaces; also 204 when there is no such section. Deleting the default ' +
        'section makes the next one the default.',
    },
    move: {
      operationId: 'moveSiteSection',
      summary: 'Move a site section',
      description:
        'Among the sections and groups of its parent; the end without `position`. Deprecated: ' +
        'use `sortSiteStructure`.',
    },
  },
  answers: {
    removed: 'The section is gone.',
    pathTaken: 'The path is taken by another section.',
    badMove: 'Invalid move position: a target that is not in the site or not a sibling.',
  },
  present: (presenter, { view, node }) => presenter.section(view, node),
}) {}
