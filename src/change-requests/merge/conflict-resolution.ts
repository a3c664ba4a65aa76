import { canonical } from '../../content-engine/merge/document-merge';
import type {
  DocumentBlock,
  JSONDocument,
  MergeConflict,
  MergeConflictKind,
} from '../../content-engine/merge/types';
import { isValidSlug } from '../../content-engine/tree/slug';
import { DomainError, invalidInput } from '../../platform/errors/domain-error';

/**
 * Resolving the conflicts of an update from the primary, the pure part: which resolution
 * answers which conflict, and what each one makes of a document, of metadata and of a place
 * among siblings. A resolution makes the change request and the primary agree on the part in
 * conflict, so the ordinary three-way merge then goes through (resolution-changes.ts writes
 * it on both sides' trees).
 */

/** The three versions a conflict is between. */
export type Side = 'base' | 'changeRequest' | 'primary';
export const SIDES: readonly Side[] = ['base', 'changeRequest', 'primary'];

/** What a resolution keeps: one side's version, or content merged by hand. */
export interface ConflictResolution {
  pageId: string;
  /** Names a block conflict (`block-edit`, `block-delete-edit`, `block-move`). */
  blockKey?: string;
  /** Names a page-level conflict (one of RESOLVABLE_PAGE_KINDS). */
  kind?: MergeConflictKind;
  keep?: Side;
  /** The block as merged by hand (its key is `blockKey`). */
  block?: DocumentBlock;
  /** For `metadata`: a value for each field in conflict (null removes the field). */
  fields?: Record<string, unknown>;
}

const BLOCK_KINDS: readonly MergeConflictKind[] = ['block-edit', 'block-delete-edit', 'block-move'];
/** Kinds about a page's existence or place: the change request's or the primary's is kept. */
const PAGE_PLACE_KINDS: readonly MergeConflictKind[] = [
  'delete-edit',
  'move-move',
  'parent-deleted',
];
/**
 * Page-level kinds a resolution can settle. The others (`cycle`, `insert-insert`) need an
 * edit of the change request.
 */
export const RESOLVABLE_PAGE_KINDS: readonly MergeConflictKind[] = [
  'metadata',
  'document',
  ...PAGE_PLACE_KINDS,
];

/** A resolution with the conflicts it settles (several when one block conflicts in content and place). */
export interface MatchedResolution {
  resolution: ConflictResolution;
  /** Its place in the request's `resolutions`, to name it. */
  index: number;
  conflicts: MergeConflict[];
}

export const unresolvable = (message: string) =>
  new DomainError('conflict', 'ChangeRequestConflictsUnresolved', message);

export const describeConflict = (conflict: MergeConflict): string =>
  conflict.blockKeys.length
    ? `${conflict.kind} of block ${conflict.blockKeys.join(', ')} on page ${conflict.pageId}`
    : `${conflict.kind}${conflict.fields ? ` (${conflict.fields.join(', ')})` : ''} on page ${conflict.pageId}`;

const describeResolution = (resolution: ConflictResolution, index: number): string =>
  `resolutions[${index}] (page ${resolution.pageId}, ` +
  `${resolution.blockKey !== undefined ? `block ${resolution.blockKey}` : resolution.kind})`;

function settles(resolution: ConflictResolution, conflict: MergeConflict): boolean {
  if (conflict.pageId !== resolution.pageId) return false;
  if (resolution.blockKey !== undefined) {
    return (
      BLOCK_KINDS.includes(conflict.kind) &&
      conflict.blockKeys.includes(resolution.blockKey) &&
      (resolution.kind === undefined || resolution.kind === conflict.kind)
    );
  }
  return conflict.blockKeys.length === 0 && conflict.kind === resolution.kind;
}

/**
 * Pairs every resolution with the conflicts it names, checking that it fits them. Refused:
 * a resolution naming no conflict, two naming the same one, and conflicts left unresolved
 * (409 ChangeRequestConflictsUnresolved, naming them); a resolution that cannot settle the
 * kind of conflict it names (400).
 */
export function matchResolutions(
  conflicts: readonly MergeConflict[],
  resolutions: readonly ConflictResolution[],
): MatchedResolution[] {
  resolutions.forEach(checkShape);
  const settledBy = new Map<MergeConflict, number>();
  const matched = resolutions.map((resolution, index) => {
    const named = conflicts.filter((conflict) => settles(resolution, conflict));
    if (named.length === 0) {
      throw unresolvable(
        `${describeResolution(resolution, index)} names no conflict: read the conflicts again ` +
          '(GET …/conflicts), the change request or the primary may have moved.',
      );
    }
    for (const conflict of named) {
      const other = settledBy.get(conflict);
      if (other !== undefined) {
        throw invalidInput(
          `resolutions[${other}] and resolutions[${index}] both resolve the ${describeConflict(conflict)}.`,
        );
      }
      settledBy.set(conflict, index);
      checkFit(resolution, conflict, index);
    }
    return { resolution, index, conflicts: named };
  });
  const left = conflicts.filter((conflict) => !settledBy.has(conflict));
  if (left.length) {
    throw unresolvable(
      `Conflicts left unresolved, so nothing was written: ${left.map(describeConflict).join('; ')}.`,
    );
  }
  return matched;
}

/** What a resolution's properties must say together (each alone is the DTO's to check). */
function checkShape(resolution: ConflictResolution, index: number): void {
  const at = `resolutions[${index}]`;
  const kept = [resolution.keep, resolution.block, resolution.fields].filter(
    (value) => value !== undefined,
  );
  if (kept.length !== 1) {
    throw invalidInput(`${at} must say what to keep: one of keep, block or fields.`);
  }
  if (resolution.blockKey === undefined && resolution.kind === undefined) {
    throw invalidInput(
      `${at} must name its conflict: blockKey (a block) or kind (a page-level conflict).`,
    );
  }
  if (resolution.blockKey !== undefined && resolution.kind !== undefined) {
    if (!BLOCK_KINDS.includes(resolution.kind)) {
      throw invalidInput(`${at}.kind: a blockKey names a ${BLOCK_KINDS.join(', ')} conflict.`);
    }
  }
  if (resolution.block !== undefined && resolution.blockKey === undefined) {
    throw invalidInput(`${at}.block needs the blockKey of the block conflict it resolves.`);
  }
  if (resolution.fields !== undefined && resolution.kind !== 'metadata') {
    throw invalidInput(`${at}.fields is for a metadata conflict (kind "metadata").`);
  }
}

function checkFit(resolution: ConflictResolution, conflict: MergeConflict, index: number): void {
  const at = `resolutions[${index}]`;
  const what = describeConflict(conflict);
  if (conflict.blockKeys.length === 0 && !RESOLVABLE_PAGE_KINDS.includes(conflict.kind)) {
    throw invalidInput(
      `${at}: a ${conflict.kind} conflict cannot be resolved here; edit the change request ` +
        '(move, delete or revert the page) and update it again.',
    );
  }
  if (resolution.fields !== undefined) {
    if (conflict.kind !== 'metadata')
      throw invalidInput(`${at}.fields: only for a metadata conflict.`);
    const given = Object.keys(resolution.fields).sort();
    const wanted = [...(conflict.fields ?? [])].sort();
    if (canonical(given) !== canonical(wanted)) {
      throw invalidInput(
        `${at}.fields must give a value for exactly the fields in conflict: ${wanted.join(', ')}.`,
      );
    }
  }
  if (resolution.keep === 'base' && PAGE_PLACE_KINDS.includes(conflict.kind)) {
    throw invalidInput(
      `${at}.keep: the ${what} keeps the change request's or the primary's version.`,
    );
  }
}

/**
 * Where `id` goes among `target`'s items so that it follows what precedes it in `source`:
 * right after the nearest of its predecessors there that `target` has, else first. `target`
 * must not hold `id`.
 */
export function placeAfterPredecessor(
  source: readonly string[],
  target: readonly string[],
  id: string,
): number {
  const position = source.indexOf(id);
  for (let i = position - 1; i >= 0; i--) {
    const at = target.indexOf(source[i]);
    if (at >= 0) return at + 1;
  }
  return 0;
}

/**
 * A document with the top-level block `key` made `chosen` (null: removed). A block it has is
 * replaced in place, unless `relocate` (a move conflict): then, like a block it lacks, it goes
 * where `placement` (the document `chosen` comes from) has it.
 */
export function withBlock(
  document: JSONDocument,
  key: string,
  chosen: DocumentBlock | null,
  placement: JSONDocument,
  relocate: boolean,
): JSONDocument {
  const at = document.nodes.findIndex((node) => node.key === key);
  const nodes = document.nodes.filter((node) => node.key !== key);
  if (chosen) {
    const index =
      at >= 0 && !relocate
        ? at
        : placeAfterPredecessor(keysOf(placement), keysOf({ ...document, nodes }), key);
    nodes.splice(index, 0, { ...chosen, key });
  }
  return { ...document, nodes };
}

const keysOf = (document: JSONDocument): string[] => document.nodes.map((node) => node.key ?? '');

/** The block `key` of a document, or null when it has none. */
export function blockOf(document: JSONDocument | null, key: string): DocumentBlock | null {
  return document?.nodes.find((node) => node.key === key) ?? null;
}

const jsonType = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

/**
 * Refuses (400) hand-merged metadata values that no version could hold: each must be null or
 * of the type the versions in conflict give it; a title a non-empty string, a slug a valid one.
 */
export function checkFieldValues(
  fields: Record<string, unknown>,
  versions: readonly Record<string, unknown>[],
  at: string,
): void {
  for (const [name, value] of Object.entries(fields)) {
    const path = `${at}.fields.${name}`;
    if (name === 'title' && (typeof value !== 'string' || value.trim() === '')) {
      throw invalidInput(`${path} must be a non-empty string.`);
    }
    if (name === 'slug' && (typeof value !== 'string' || !isValidSlug(value))) {
      throw invalidInput(`${path} must be a slug: lowercase letters and digits joined by "-".`);
    }
    const types = new Set(
      versions.map((meta) => jsonType(meta[name])).filter((type) => type !== 'undefined'),
    );
    types.delete('null');
    if (value !== null && types.size > 0 && !types.has(jsonType(value))) {
      throw invalidInput(`${path} must be ${[...types].join(' or ')} or null.`);
    }
  }
}

/**
 * The metadata update making a side's fields in conflict what the resolution keeps. A new
 * title carries the side's own slug along, so that the commit derives none (which could
 * differ between the sides and conflict anew).
 */
export function metadataUpdate(
  fields: readonly string[],
  kept: Record<string, unknown>,
  side: Record<string, unknown>,
): Record<string, unknown> {
  const update: Record<string, unknown> = {};
  for (const field of fields) update[field] = kept[field] ?? null;
  if ('title' in update && !fields.includes('slug') && side.slug !== undefined) {
    update.slug = side.slug;
  }
  return update;
}
