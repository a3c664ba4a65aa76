import type { MergeConflict } from '../../content-engine/merge/types';
import type { ConflictPageVersion, MergeConflictResponse } from '../dto/merge.response';
import { blockOf, SIDES, type Side } from './conflict-resolution';
import type { SideTree } from './side-tree';

/**
 * Conflicts with what each version has of the part in conflict: for block conflicts each
 * block in the merge base, the change request and the primary; for page-level ones the page
 * (title, parent, the fields in conflict), or null where a version does not have it.
 */
export async function withVersions(
  sides: Record<Side, SideTree>,
  conflicts: readonly MergeConflict[],
): Promise<MergeConflictResponse[]> {
  return Promise.all(
    conflicts.map(async (conflict) => {
      if (conflict.blockKeys.length) {
        const documents = await Promise.all(
          SIDES.map((side) => sides[side].document(conflict.pageId)),
        );
        const blocks = conflict.blockKeys.map((key) => {
          const [base, changeRequest, primary] = documents.map((document) =>
            blockOf(document, key),
          );
          return { key, base, changeRequest, primary };
        });
        return { ...conflict, blocks };
      }
      const [base, changeRequest, primary] = await Promise.all(
        SIDES.map((side) => pageVersion(sides[side], conflict)),
      );
      return { ...conflict, page: { base, changeRequest, primary } };
    }),
  );
}

async function pageVersion(
  side: SideTree,
  conflict: MergeConflict,
): Promise<ConflictPageVersion | null> {
  const page = await side.page(conflict.pageId);
  if (!page) return null;
  const title = typeof page.meta.title === 'string' ? page.meta.title : null;
  const version: ConflictPageVersion = { title, parentId: page.parentId };
  if (conflict.fields) {
    version.fields = Object.fromEntries(
      conflict.fields.map((field) => [field, page.meta[field] ?? null]),
    );
  }
  return version;
}
