import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  type ContentViewer,
  whereVisibleTo,
} from '../../platform/policy/content-access/granted-content';
import { Space } from '../../spaces/entities/space.entity';

/** A space an organization's answer may draw from. */
export interface ReadableSpace {
  id: string;
  title: string;
  /** Its primary revision: what the search index holds (never a change request's draft). */
  revisionId: string;
}

/**
 * The organization's spaces a member may read, as searchOrganizationContent searches them:
 * every live space for a member with a role, those granted to it (or its teams, or a
 * collection above) for a guest.
 */
@Injectable()
export class ReadableSpacesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The viewer's readable live spaces, by title. */
  list(viewer: ContentViewer): Promise<ReadableSpace[]> {
    const query = this.dataSource
      .getRepository(Space)
      .createQueryBuilder('s')
      .select(['s.id', 's.title', 's.revisionId'])
      .where('s.organization_id = :organizationId', { organizationId: viewer.organizationId })
      .andWhere('s.deleted_at IS NULL');
    return whereVisibleTo(query, 'space', 's.id', viewer)
      .orderBy('s.title')
      .addOrderBy('s.id')
      .getMany();
  }
}
