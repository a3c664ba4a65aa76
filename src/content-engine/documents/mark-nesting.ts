import type { DocumentLeaf, DocumentMark, MarkType } from './document';

/*
 * How GitBook nests the marks of a run of leaves, in markdown and in HTML alike: by mark type in
 * a fixed order, outermost first, each type wrapping the longest runs of consecutive leaves
 * that have it, the next type nesting inside: `_**a**b_` for (bold, italic) "a" then (italic)
 * "b", `**a [**_**b**_**] c**` for bold "a [", (bold, italic) "b", bold "] c" (emphasis comes
 * first, so it splits the strong around it). Code is innermost.
 */
export const WRAP_ORDER: readonly MarkType[] = [
  'italic',
  'color',
  'keyboard',
  'superscript',
  'subscript',
  'bold',
  'strikethrough',
  'code',
];

function markKey(mark: DocumentMark): string {
  return mark.data ? `${mark.type}${JSON.stringify(mark.data)}` : mark.type;
}

/**
 * Leaves as nested output: `bare` writes a leaf with the marks left (`code` at most, when
 * `wraps` does not take it), `wrap` puts nodes inside a mark.
 */
export function nestMarks<T>(
  leaves: readonly DocumentLeaf[],
  wraps: (mark: DocumentMark) => boolean,
  bare: (leaf: DocumentLeaf) => T[],
  wrap: (mark: DocumentMark, children: T[]) => T[],
  level = 0,
): T[] {
  if (level >= WRAP_ORDER.length) return leaves.flatMap(bare);
  const type = WRAP_ORDER[level];
  const markOf = (leaf: DocumentLeaf) =>
    leaf.marks.find((mark) => mark.type === type && wraps(mark));
  const out: T[] = [];
  let i = 0;
  while (i < leaves.length) {
    const mark = markOf(leaves[i]);
    let j = i + 1;
    const same = (leaf: DocumentLeaf) => {
      const other = markOf(leaf);
      return mark ? other !== undefined && markKey(other) === markKey(mark) : other === undefined;
    };
    while (j < leaves.length && same(leaves[j])) j++;
    const run = leaves.slice(i, j);
    if (!mark) out.push(...nestMarks(run, wraps, bare, wrap, level + 1));
    else {
      const inner = run.map((leaf) => ({
        ...leaf,
        marks: leaf.marks.filter((other) => other.type !== type),
      }));
      out.push(...wrap(mark, nestMarks(inner, wraps, bare, wrap, level + 1)));
    }
    i = j;
  }
  return out;
}
