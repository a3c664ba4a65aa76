/** A rich document's text, one line per block, for prompts (formatting dropped). */
export function plainText(document: { nodes?: unknown[] } | null | undefined): string {
  const lines: string[] = [];
  const inline = (node: Record<string, unknown>): string => {
    if (node.object === 'text') {
      const leaves = Array.isArray(node.leaves) ? (node.leaves as { text?: unknown }[]) : [];
      return leaves.map((leaf) => (typeof leaf.text === 'string' ? leaf.text : '')).join('');
    }
    const children = Array.isArray(node.nodes) ? (node.nodes as Record<string, unknown>[]) : [];
    return children.map(inline).join('');
  };
  const block = (node: Record<string, unknown>): void => {
    const children = Array.isArray(node.nodes) ? (node.nodes as Record<string, unknown>[]) : [];
    if (children.some((child) => child.object === 'block')) {
      children.forEach(block);
      return;
    }
    const text = children.map(inline).join('').trim();
    if (text !== '') lines.push(text);
  };
  ((document?.nodes ?? []) as Record<string, unknown>[]).forEach(block);
  return lines.join('\n');
}
