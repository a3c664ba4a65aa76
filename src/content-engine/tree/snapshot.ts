/**
 * A revision's pages flattened by id: where each page sits (parent, index among its siblings),
 * its metadata and its document. The shape a three-way merge compares.
 */
export interface SnapshotPage {
  id: string;
  parentId: string | null;
  index: number;
  meta: Record<string, unknown>;
  documentHash: string | null;
}

export type PageSnapshot = Map<string, SnapshotPage>;
