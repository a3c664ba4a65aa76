import type { PageTree } from '../../content-engine/reads/content-reader';
import type { PageNode } from '../../content-engine/tree/format';

/** A page to print and how deep it sits in what is printed. */
export interface PageToPrint {
  node: PageNode;
  depth: number;
}

/**
 * The pages of `trees` in reading order: each page, then its subpages, depth first. With
 * `only`, the pages of `trees` themselves, without their subpages.
 */
export function pagesToPrint(trees: PageTree[], only = false): PageToPrint[] {
  const out: PageToPrint[] = [];
  const visit = (tree: PageTree, depth: number) => {
    out.push({ node: tree.node, depth });
    if (!only) tree.pages.forEach((page) => visit(page, depth + 1));
  };
  trees.forEach((tree) => visit(tree, 0));
  return out;
}
