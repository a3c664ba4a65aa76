/**
 * Where to put an item among its siblings: before one, after one, or both when they are next
 * to each other; the end when neither is given. Siblings are keys (`site-space:<id>`), so one
 * list can mix sections and groups.
 */
export interface SiblingPosition {
  before?: string;
  after?: string;
}

export type Placement =
  | { order: string[] }
  /** The pointer is not one of the item's siblings (or is the item itself). */
  | { problem: 'not-a-sibling'; which: 'before' | 'after' }
  /** `before` and `after` are both siblings, but not next to each other. */
  | { problem: 'not-adjacent' };

/** The new order of `siblings` (which may or may not include `item`) with `item` placed. */
export function placeAmong(
  siblings: readonly string[],
  item: string,
  position: SiblingPosition,
): Placement {
  const others = siblings.filter((key) => key !== item);
  const beforeIndex = position.before === undefined ? -1 : others.indexOf(position.before);
  const afterIndex = position.after === undefined ? -1 : others.indexOf(position.after);
  if (position.before !== undefined && beforeIndex < 0) {
    return { problem: 'not-a-sibling', which: 'before' };
  }
  if (position.after !== undefined && afterIndex < 0) {
    return { problem: 'not-a-sibling', which: 'after' };
  }
  let index = others.length;
  if (position.before !== undefined && position.after !== undefined) {
    if (beforeIndex !== afterIndex + 1) return { problem: 'not-adjacent' };
    index = beforeIndex;
  } else if (position.before !== undefined) {
    index = beforeIndex;
  } else if (position.after !== undefined) {
    index = afterIndex + 1;
  }
  return { order: [...others.slice(0, index), item, ...others.slice(index)] };
}
