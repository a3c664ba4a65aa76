import { ContentEngine } from '../../src/content/content-engine';
import { Revision } from '../../src/content/entities/revision.entity';
import type { PageChange } from '../../src/content/tree/commit';
import type { TestApp } from './app';

/**
 * Commits `changes` on the space's primary revision one second after the last commit and moves
 * the space to the result, straight through the engine (no listener runs: the search index is
 * not updated); returns the new revision.
 */
export async function commitOnSpace(
  t: TestApp,
  spaceId: string,
  changes: PageChange[],
): Promise<Revision> {
  t.clock.advance(1000);
  const engine = t.bindery.app.get(ContentEngine);
  return t.dataSource.transaction(async (manager) => {
    const [row]: { revision_id: string }[] = await manager.query(
      'SELECT revision_id FROM spaces WHERE id = $1 FOR UPDATE',
      [spaceId],
    );
    const parent = await manager.findOneByOrFail(Revision, { id: row.revision_id });
    const revision = await engine.commitRevision(manager, {
      spaceId,
      parent,
      changes,
      authorId: null,
    });
    await manager.query('UPDATE spaces SET revision_id = $1 WHERE id = $2', [revision.id, spaceId]);
    return revision;
  });
}
