/**
 * Which content objects a set of root trees reaches: the mark phase of the content garbage
 * collector, pure over an object reader so that it can be tested without a database.
 */

/** Reads objects by hash, many at once (one query per call); unknown hashes are left out. */
export interface ObjectBatchReader {
  readMany(hashes: readonly string[]): Promise<Map<string, object>>;
}

/**
 * What a reference points at, known from where it was found. Documents and files reference no
 * other object (they name files and pages by id), so they are marked without being read.
 */
export type ObjectRole = 'root' | 'page' | 'page-index' | 'reusable-content' | 'document' | 'file';

const LEAVES: ReadonlySet<ObjectRole> = new Set(['document', 'file']);

export interface MarkStats {
  /** Objects read (roots, pages, page-index nodes, reusable contents). */
  read: number;
  /** Reads (queries) made. */
  batches: number;
  /** Referenced objects that are not in the store. */
  missing: string[];
}

export const DEFAULT_MARK_BATCH_SIZE = 500;

type Reference = [hash: string, role: ObjectRole];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A shape the collector does not know: stop rather than sweep what it may reference. */
function unknownShape(role: ObjectRole, hash: string, why: string): Error {
  return new Error(`Content object ${hash} (${role}) has an unknown shape: ${why}`);
}

function hashes(value: unknown, role: ObjectRole, hash: string, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw unknownShape(role, hash, `${field} is not a list`);
  return value.map((entry: unknown) => {
    // Version 1 lists child hashes; version 2 lists {id, slug, hash}.
    if (typeof entry === 'string') return entry;
    if (isRecord(entry) && typeof entry.hash === 'string') return entry.hash;
    throw unknownShape(role, hash, `an entry of ${field} is neither a hash nor a reference`);
  });
}

function optionalHash(value: unknown, role: ObjectRole, hash: string, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value !== 'string') throw unknownShape(role, hash, `${field} is not a hash`);
  return [value];
}

/**
 * The objects that `data` (an object read in `role`) references, with their roles: roots of
 * format 1 and 2, pages of format 1 (`pages` hashes, `documentId`) and 2 (`pages` ChildRefs,
 * `document`), page-index branches, reusable contents (their `document`).
 */
export function referencesOf(role: ObjectRole, hash: string, data: object): Reference[] {
  const node = data as Record<string, unknown>;
  const refs: Reference[] = [];
  const add = (list: string[], to: ObjectRole) => {
    for (const ref of list) refs.push([ref, to]);
  };
  switch (role) {
    case 'root': {
      if (node.version !== 1 && node.version !== 2) {
        throw unknownShape(role, hash, `tree format version ${String(node.version)}`);
      }
      add(hashes(node.pages, role, hash, 'pages'), 'page');
      add(hashes(node.files, role, hash, 'files'), 'file');
      add(hashes(node.reusableContents, role, hash, 'reusableContents'), 'reusable-content');
      if (node.version === 2) add(optionalHash(node.index, role, hash, 'index'), 'page-index');
      return refs;
    }
    case 'page': {
      add(hashes(node.pages, role, hash, 'pages'), 'page');
      const document = 'meta' in node ? node.document : node.documentId;
      add(optionalHash(document, role, hash, 'document'), 'document');
      return refs;
    }
    case 'page-index': {
      if ('leaf' in node) return refs;
      if (!isRecord(node.branch)) throw unknownShape(role, hash, 'neither a leaf nor a branch');
      for (const child of Object.values(node.branch)) {
        if (!isRecord(child) || typeof child.hash !== 'string') {
          throw unknownShape(role, hash, 'a branch entry has no hash');
        }
        refs.push([child.hash, 'page-index']);
      }
      return refs;
    }
    case 'reusable-content':
      add(optionalHash(node.document, role, hash, 'document'), 'document');
      return refs;
    case 'document':
    case 'file':
      return refs;
  }
}

/**
 * Marks (adds to `marked`) every object reachable from `roots`, reading the objects that hold
 * references `batchSize` at a time. An object already in `marked` is not walked again, so
 * subtrees shared between revisions (or spaces) are read once across calls.
 */
export async function markReachable(
  reader: ObjectBatchReader,
  roots: Iterable<string>,
  marked: Set<string>,
  options: { batchSize?: number } = {},
): Promise<MarkStats> {
  const batchSize = options.batchSize ?? DEFAULT_MARK_BATCH_SIZE;
  const stats: MarkStats = { read: 0, batches: 0, missing: [] };
  // Breadth first, a level at a time: every level is read in batches of `batchSize`.
  let level: Reference[] = [];
  const visit = ([hash, role]: Reference) => {
    if (marked.has(hash)) return;
    marked.add(hash);
    if (!LEAVES.has(role)) level.push([hash, role]);
  };
  for (const root of roots) visit([root, 'root']);
  while (level.length > 0) {
    const current = level;
    level = [];
    for (let start = 0; start < current.length; start += batchSize) {
      const batch = current.slice(start, start + batchSize);
      const objects = await reader.readMany(batch.map(([hash]) => hash));
      stats.batches++;
      for (const [hash, role] of batch) {
        const data = objects.get(hash);
        if (data === undefined) {
          stats.missing.push(hash);
          continue;
        }
        stats.read++;
        for (const ref of referencesOf(role, hash, data)) visit(ref);
      }
    }
  }
  return stats;
}
