/** Gap between consecutive sibling positions when appending or renumbering. */
export const POSITION_GAP = 1024;

export interface Positioned {
  id: string;
  position: number;
}

/** Where to put an item among its new siblings: before or after one of them; at the end when neither. */
export interface Anchor {
  before?: string;
  after?: string;
}

export type Placement =
  | { ok: true; position: number; index: number; renumbered: Positioned[] }
  | { ok: false; reason: string };

/** The position of an item appended after `siblings`. */
export function lastPosition(siblings: Positioned[]): number {
  return siblings.reduce((max, s) => Math.max(max, s.position), 0) + POSITION_GAP;
}

/**
 * Places an item among `siblings` (ordered by position, the moved item left out) next to the
 * anchor: the midpoint between its neighbours, or, when no integer lies between them, a fresh
 * numbering of every sibling with gaps of POSITION_GAP (`renumbered`: the siblings whose
 * position changes), and `index`, its place in the list. With both `before` and `after`, they must be adjacent (after, then before).
 */
export function placeAmong(siblings: Positioned[], anchor: Anchor): Placement {
  const indexOf = (id: string) => siblings.findIndex((s) => s.id === id);
  let index: number;
  if (anchor.before !== undefined) {
    index = indexOf(anchor.before);
    if (index < 0) return { ok: false, reason: 'before' };
    if (anchor.after !== undefined && indexOf(anchor.after) !== index - 1) {
      return { ok: false, reason: 'adjacent' };
    }
  } else if (anchor.after !== undefined) {
    const after = indexOf(anchor.after);
    if (after < 0) return { ok: false, reason: 'after' };
    index = after + 1;
  } else {
    index = siblings.length;
  }

  const previous = siblings[index - 1]?.position;
  const next = siblings[index]?.position;
  if (next === undefined) {
    return { ok: true, position: lastPosition(siblings), index, renumbered: [] };
  }
  if (previous === undefined) {
    return { ok: true, position: next - POSITION_GAP, index, renumbered: [] };
  }
  if (next - previous >= 2) {
    const position = previous + Math.floor((next - previous) / 2);
    return { ok: true, position, index, renumbered: [] };
  }
  const renumbered: Positioned[] = [];
  siblings.forEach((sibling, i) => {
    const position = (i < index ? i + 1 : i + 2) * POSITION_GAP;
    if (position !== sibling.position) renumbered.push({ id: sibling.id, position });
  });
  return { ok: true, position: (index + 1) * POSITION_GAP, index, renumbered };
}
