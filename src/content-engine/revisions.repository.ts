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

  /**
   * The revisions before `revisionId` of `spaceId` on its first-parent line (a merge's first
   * parent is the content it merged into), nearest first, at most `depth` of them.
   */
  async firstParentLine(
    spaceId: string,
    revisionId: string,
    depth: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const rows: { id: string }[] = await manager.query(
      `WITH RECURSIVE line(id, parent, depth) AS (
         SELECT id, parents[1], 0 FROM revisions WHERE id = $2 AND space_id = $1
         UNION ALL
         SELECT r.id, r.parents[1], line.depth + 1 FROM revisions r
           JOIN line ON r.id = line.parent AND r.space_id = $1
          WHERE line.depth < $3)
       SELECT id FROM line WHERE depth > 0 ORDER BY depth`,
      [spaceId, revisionId, depth],
    );
    return rows.map((row) => row.id);
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
