/** One entry of SUMMARY.md: a link (or a group heading) with its nested entries. */
export interface SummaryEntry {
  kind: 'page' | 'group';
  title: string;
  /** The link destination as written (decoded, without angle brackets); none for a group. */
  target?: string;
  children: SummaryEntry[];
}

const ITEM = /^(\s*)[*+-]\s+\[((?:\\.|[^\]\\])*)\]\(\s*(<[^>]*>|[^\s)]*)(?:\s+"[^"]*")?\s*\)\s*$/;
const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;

/**
 * The page tree of a SUMMARY.md: nested list items are subpages (by indentation), `##`
 * headings (or deeper) start a group holding the items below them; the `#` title of the file
 * is ignored. List items without a link are ignored, their children kept at their level.
 */
export function parseSummary(text: string): SummaryEntry[] {
  const top: SummaryEntry[] = [];
  let section = top;
  // Open list items, innermost last, with the indentation of their bullet.
  let stack: { indent: number; entry: SummaryEntry }[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\t/g, '    ');
    const heading = HEADING.exec(line);
    if (heading) {
      if (heading[1].length >= 2) {
        const group: SummaryEntry = { kind: 'group', title: heading[2], children: [] };
        top.push(group);
        section = group.children;
      }
      stack = [];
      continue;
    }
    const item = ITEM.exec(line);
    if (!item) continue;
    const indent = item[1].length;
    const entry: SummaryEntry = {
      kind: 'page',
      title: item[2].replace(/\\(.)/g, '$1').trim(),
      target: decodeTarget(item[3]),
      children: [],
    };
    while (stack.length > 0 && stack[stack.length - 1].indent >= indent) stack.pop();
    (stack.length > 0 ? stack[stack.length - 1].entry.children : section).push(entry);
    stack.push({ indent, entry });
  }
  return top;
}

function decodeTarget(raw: string): string {
  const bare = raw.startsWith('<') && raw.endsWith('>') ? raw.slice(1, -1) : raw;
  try {
    return decodeURI(bare);
  } catch {
    return bare;
  }
}
