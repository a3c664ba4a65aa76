import type { DocumentBlock, DocumentFragment, DocumentNode, JSONDocument } from './document';

/**
 * Dereferencing reusable contents (`dereferenced=reusable-contents`): each `reusable-content`
 * block of a document is replaced by the nodes of the reusable content it names, as GitBook's
 * renderer expects of the API (it then renders those nodes in place of the block). Blocks are
 * looked for wherever blocks go: a document's nodes, the nodes of any block and the nodes of
 * its fragments (an expandable's body, for example).
 *
 * - A reusable content of another space (`ref.space` set to another space) is not read: its
 *   block stays as stored. So does a block whose reusable content the revision does not have
 *   (the renderer leaves it out).
 * - A reusable content containing reusable contents is dereferenced too, up to
 *   {@link MAX_REUSABLE_CONTENT_DEPTH} levels. A block that would repeat a reusable content it
 *   is already inside (a cycle), or go deeper, is left out: rendered as stored, it would have the
 *   renderer follow the cycle.
 * - Nodes are inlined as the reusable content stores them, keys included.
 */

/** How many reusable contents may sit inside one another in a dereferenced document. */
export const MAX_REUSABLE_CONTENT_DEPTH = 5;

/** The document of a reusable content of the revision by id; null when it has none by that id. */
export type ReusableContentDocuments = (reusableContentId: string) => Promise<JSONDocument | null>;

/**
 * `document` with its reusable-content blocks replaced by their contents. `spaceId`: the space
 * whose revision it is; `inside`: ids of the reusable contents the document itself is part of
 * (a reusable content's own document is inside itself). Returns `document` itself when it has
 * nothing to replace.
 */
export async function dereferenceReusableContents(
  document: JSONDocument,
  spaceId: string,
  documents: ReusableContentDocuments,
  inside: readonly string[] = [],
): Promise<JSONDocument> {
  const nodes = await expandNodes(document.nodes, { spaceId, documents }, inside);
  return nodes === document.nodes ? document : { ...document, nodes: nodes as DocumentBlock[] };
}

interface Context {
  spaceId: string;
  documents: ReusableContentDocuments;
}

/** The reusable content a block includes from this space, or null for any other node. */
export function includedReusableContent(node: DocumentNode, spaceId: string): string | null {
  if (node.object !== 'block' || node.type !== 'reusable-content') return null;
  const ref = node.data?.ref as { kind?: unknown; reusableContent?: unknown; space?: unknown };
  if (ref?.kind !== 'reusable-content' || typeof ref.reusableContent !== 'string') return null;
  if (ref.space !== undefined && ref.space !== spaceId) return null;
  return ref.reusableContent;
}

/** `nodes` with reusable contents expanded; the same array when nothing changed. */
async function expandNodes(
  nodes: DocumentNode[],
  context: Context,
  inside: readonly string[],
): Promise<DocumentNode[]> {
  const expanded: DocumentNode[] = [];
  let changed = false;
  for (const node of nodes) {
    const included = includedReusableContent(node, context.spaceId);
    if (included === null) {
      const next = await expandNode(node, context, inside);
      changed ||= next !== node;
      expanded.push(next);
      continue;
    }
    if (inside.includes(included) || inside.length >= MAX_REUSABLE_CONTENT_DEPTH) {
      changed = true;
      continue;
    }
    const document = await context.documents(included);
    if (!document) {
      expanded.push(node);
      continue;
    }
    changed = true;
    expanded.push(...(await expandNodes(document.nodes, context, [...inside, included])));
  }
  return changed ? expanded : nodes;
}

/** A node with the reusable contents below it expanded; the same node when nothing changed. */
async function expandNode(
  node: DocumentNode,
  context: Context,
  inside: readonly string[],
): Promise<DocumentNode> {
  if (node.object === 'text') return node;
  let next: DocumentNode = node;
  if (node.nodes) {
    const nodes = await expandNodes(node.nodes as DocumentNode[], context, inside);
    if (nodes !== node.nodes) next = { ...next, nodes } as DocumentNode;
  }
  if (node.fragments) {
    let changed = false;
    const fragments: DocumentFragment[] = [];
    for (const fragment of node.fragments) {
      const nodes = await expandNodes(fragment.nodes, context, inside);
      changed ||= nodes !== fragment.nodes;
      fragments.push(
        nodes === fragment.nodes ? fragment : { ...fragment, nodes: nodes as DocumentBlock[] },
      );
    }
    if (changed) next = { ...next, fragments } as DocumentNode;
  }
  return next;
}
