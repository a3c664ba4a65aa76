import type { PageNode } from '../../content-engine/tree/format';
import type { SyncedEntry } from '../entities/git-sync-state.entity';
import type { ReadLayoutPage } from '../layout/layout-reader';

/** Git's rename threshold: a file at least this similar to a vanished one is that file moved. */
export const SIMILARITY_THRESHOLD = 0.5;

/** Above this many (new × vanished) pairs, moves are found by identical content only. */
const MAX_SIMILARITY_PAIRS = 10_000;

/**
 * The id of each file of an import (paths relative to the content root): the file the last
 * sync had at its path, else a vanished file with the same content (the same Git blob: a move
 * or a rename), else none (a new file).
 */
export function fileIdentities(
  paths: readonly string[],
  oids: ReadonlyMap<string, string>,
  previous: ReadonlyMap<string, SyncedEntry>,
): Map<string, string> {
  const ids = new Map<string, string>();
  const used = new Set<string>();
  for (const path of paths) {
    const entry = previous.get(path);
    if (entry?.kind === 'file' && !used.has(entry.id)) {
      ids.set(path, entry.id);
      used.add(entry.id);
    }
  }
  const vanished = [...previous]
    .filter(([path, entry]) => entry.kind === 'file' && !used.has(entry.id) && !oids.has(path))
    .map(([, entry]) => entry);
  for (const path of paths) {
    if (ids.has(path)) continue;
    const match = vanished.find((entry) => entry.oid === oids.get(path) && !used.has(entry.id));
    if (match) {
      ids.set(path, match.id);
      used.add(match.id);
    }
  }
  return ids;
}

/** What page identities look at: the last sync's paths, and the base's pages. */
export interface PageIdentityInput {
  /** Blob of each path read (relative to the content root). */
  oids: ReadonlyMap<string, string>;
  previous: ReadonlyMap<string, SyncedEntry>;
  /** The pages of the base revision, by id. */
  base: ReadonlyMap<string, { node: PageNode }>;
  /** The text of a base page, for pages whose file vanished (compared for similarity). */
  textOf(pageId: string): Promise<string>;
}

/**
 * Gives the pages of an import (read with fresh ids) the ids they had, in place:
 *
 * 1. a page read from a path the last sync had → that page;
 * 2. a page read from a new path → the page of a vanished path with the same blob (moved or
 *    renamed as is), else the most similar vanished page at least SIMILARITY_THRESHOLD alike
 *    (Dice coefficient of their non-blank lines, as Git finds renames);
 * 3. a page without a file (a group, a link, a summary entry without its file) → the first
 *    base page of the same type and title (links: target) that has no file either;
 *
 * and only what is left keeps its new id. Returns the pages that moved (old path → new).
 */
export async function assignPageIdentities(
  pages: ReadLayoutPage[],
  input: PageIdentityInput,
): Promise<{ from: string; to: string; id: string }[]> {
  const all: ReadLayoutPage[] = [];
  const collect = (list: ReadLayoutPage[]) =>
    list.forEach((page) => {
      all.push(page);
      collect(page.pages);
    });
  collect(pages);
  const used = new Set<string>();
  const take = (page: ReadLayoutPage, id: string) => {
    page.id = id;
    used.add(id);
  };
  const unmatched: ReadLayoutPage[] = [];
  for (const page of all) {
    const entry = page.path ? input.previous.get(page.path) : undefined;
    if (entry?.kind === 'page' && !used.has(entry.id)) take(page, entry.id);
    else if (page.path) unmatched.push(page);
  }

  const moves: { from: string; to: string; id: string }[] = [];
  const vanished = [...input.previous]
    .filter(
      ([path, entry]) =>
        entry.kind === 'page' &&
        !used.has(entry.id) &&
        !input.oids.has(path) &&
        input.base.has(entry.id),
    )
    .map(([path, entry]) => ({ path, entry }));
  const left: ReadLayoutPage[] = [];
  for (const page of unmatched) {
    const oid = input.oids.get(page.path!);
    const same = vanished.find(({ entry }) => entry.oid === oid && !used.has(entry.id));
    if (same) {
      take(page, same.entry.id);
      moves.push({ from: same.path, to: page.path!, id: same.entry.id });
    } else {
      left.push(page);
    }
  }
  const candidates = vanished.filter(({ entry }) => !used.has(entry.id));
  if (left.length > 0 && candidates.length > 0) {
    if (left.length * candidates.length <= MAX_SIMILARITY_PAIRS) {
      const oldLines = await Promise.all(
        candidates.map(async ({ entry }) => lines(await input.textOf(entry.id))),
      );
      const pairs: { page: ReadLayoutPage; candidate: number; score: number }[] = [];
      for (const page of left) {
        const newLines = lines(page.markdown ?? '');
        for (const [candidate, old] of oldLines.entries()) {
          const score = dice(newLines, old);
          if (score >= SIMILARITY_THRESHOLD) pairs.push({ page, candidate, score });
        }
      }
      pairs.sort((a, b) => b.score - a.score);
      const placed = new Set<ReadLayoutPage>();
      for (const { page, candidate, score } of pairs) {
        const { path, entry } = candidates[candidate];
        if (placed.has(page) || used.has(entry.id) || score < SIMILARITY_THRESHOLD) continue;
        placed.add(page);
        take(page, entry.id);
        moves.push({ from: path, to: page.path!, id: entry.id });
      }
    }
  }

  const fileless = [...input.base.values()]
    .map(({ node }) => node)
    .filter((node) => node.meta.git === undefined);
  for (const page of all) {
    if (page.path || used.has(page.id)) continue;
    const match = fileless.find(
      (node) => !used.has(node.id) && node.type === page.type && sameKey(node, page),
    );
    if (match) take(page, match.id);
  }
  return moves;
}

function sameKey(node: PageNode, page: ReadLayoutPage): boolean {
  if (page.type === 'link') {
    const target = node.meta.target as { url?: unknown } | undefined;
    return (node.meta.href ?? target?.url) === page.href && node.meta.title === page.title;
  }
  return node.meta.title === page.title;
}

/** Non-blank lines, trimmed, with their counts. */
function lines(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line) counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  return counts;
}

/** 2 × common / (|a| + |b|), over lines counted with their multiplicity. */
export function dice(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let sizeA = 0;
  let sizeB = 0;
  let common = 0;
  for (const count of a.values()) sizeA += count;
  for (const [line, count] of b) {
    sizeB += count;
    common += Math.min(count, a.get(line) ?? 0);
  }
  return sizeA + sizeB === 0 ? 1 : (2 * common) / (sizeA + sizeB);
}

export { lines as lineCounts };
