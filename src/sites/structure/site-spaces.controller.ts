import {
  AddSiteSpaceDto,
  ListSiteSpacesQueryDto,
  MoveSiteSpaceDto,
  UpdateSiteSpaceDto,
} from './dto/site-space.dto';
import { SiteSpaceResponse } from './dto/site-structure.response';
import { SiteSpacesService } from './site-spaces.service';
import { StructureNodeController } from './structure-node.controller';

export class SiteSpacesController extends StructureNodeController({
  segment: 'site-spaces',
  namesSpace: ['add', 'update'],
  resource: 'siteSpace',
  param: 'siteSpaceId',
  tag: 'site-spaces',
  service: SiteSpacesService,
  response: SiteSpaceResponse,
  classes: {
    list: ListSiteSpacesQueryDto,
    add: AddSiteSpaceDto,
    update: UpdateSiteSpaceDto,
    move: MoveSiteSpaceDto,
  },
  operations: {
    list: {
      operationId: 'listSiteSpaces',
      summary: 'List all site spaces',
      description:
        "The site spaces of the site, in the order a reader meets them (the root's, then each section's, as moves and sorts set it); `default` keeps only the " +
        'defaults (of the root, or of each section) or only the others.',
    },
    add: {
      operationId: 'addSpaceToSite',
      summary: 'Add a space to a site',
      description:
        'To `sectionId`, else to the default section, else (a site without sections) at the ' +
        "root; at the end, with a path from the space's title. The first site space of a " +
        'section (or of the root) is its default. 400 when the space or section is not in the ' +
        'organization or site.',
    },
    update: {
      operationId: 'updateSiteSpaceById',
      summary: 'Update a site space',
      description:
        'Absent fields are unchanged; `condition: null` removes the condition. 409 when `path` ' +
        'is the path of a sibling (same section, or the root).',
    },
    remove: {
      operationId: 'deleteSiteSpaceById',
      summary: 'Delete a site space',
      description:
        'Also 204 when there is no such site space. Deleting the default makes the next ' +
        'sibling the default.',
    },
    move: {
      operationId: 'moveSiteSpace',
      summary: 'Move a site space',
      description:
        'Among the site spaces of its section (or root); the end without `position`. ' +
        'Deprecated: use `sortSiteStructure`.',
    },
  },
  answers: {
    removed: 'The site space is gone.',
    pathTaken: 'The path is taken by a sibling.',
    badMove: 'Invalid move position.',
  },
  present: (presenter, { view, node }) => presenter.siteSpace(view, node),
}) {}
