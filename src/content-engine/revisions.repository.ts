import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** A revision's root tree. */
export interface RevisionTreeRow {
  id: string;
  tree: string;
}

/** The `revisions` table: immutable states of a space's content. */
@Injectable()
export class RevisionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The root tree of the revision `revisionId` of `spaceId`, or undefined. */
  async findTree(
    revisionId: string,
    spaceId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string | undefined> {
    const rows: { tree: string }[] = await manager.query(
      'SELECT tree FROM revisions WHERE id = $1 AND space_id = $2',
      [revisionId, spaceId],
    );
    return rows[0]?.tree;
  }

  /** The root trees of the revisions among `revisionIds` that exist. */
  findTrees(
    revisionIds: readonly string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<RevisionTreeRow[]> {
    return manager.query('SELECT id, tree FROM revisions WHERE id = ANY($1::varchar[])', [
      revisionIds,
    ]);
  }

  /**
   * Up to `limit` distinct root trees after `after`, in order: a keyset over IDX_revisions_tree
   * that answers each tree once, whatever number of revisions share it.
   */
  async distinctTreesAfter(
    after: string,
    limit: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const rows: { tree: string }[] = await manager.query(
      'SELECT DISTINCT tree FROM revisions WHERE tree > $1 ORDER BY tree LIMIT $2',
      [after, limit],
    );
    return rows.map((row) => row.tree);
  }
}
