/** A node of a document as read from storage: only what finding and checking targets needs. */
export interface AnyNode {
  key?: unknown;
  type?: unknown;
  data?: unknown;
  nodes?: unknown;
  fragments?: unknown;
}

/**
 * The node of `document` whose `key` is `key`, at any depth: among the children (`nodes`) or
 * the fragments (`fragments`) of any block or inline; null when there is none.
 */
export function findNodeByKey(document: { nodes?: unknown }, key: string): AnyNode | null {
  const pending: unknown[] = Array.isArray(document.nodes)
    ? [...(document.nodes as unknown[])]
    : [];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== 'object' || node === null) continue;
    const { key: own, nodes, fragments } = node as AnyNode;
    if (own === key) return node as AnyNode;
    if (Array.isArray(nodes)) pending.push(...(nodes as unknown[]));
    if (Array.isArray(fragments)) pending.push(...(fragments as unknown[]));
  }
  return null;
}

/**
 * Whether `node` is a table with the record (row) `record` and the definition (column)
 * `definition` (GitBook's table block: `data.records` and `data.definition`, maps by id).
 */
export function hasTableCell(node: AnyNode, record: string, definition: string): boolean {
  if (node.type !== 'table' || typeof node.data !== 'object' || node.data === null) return false;
  const { records, definition: definitions } = node.data as {
    records?: unknown;
    definition?: unknown;
  };
  const has = (map: unknown, id: string) =>
    typeof map === 'object' && map !== null && Object.prototype.hasOwnProperty.call(map, id);
  return has(records, record) && has(definitions, definition);
}
