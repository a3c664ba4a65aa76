/** One entry of SUMMARY.md: a link, a group heading or a computed page, with its nested entries. */
export interface SummaryEntry {
  /** `text`: a list item without a link (`* Obsolete installation`), a heading for its items. */
  kind: 'page' | 'group' | 'computed' | 'text';
  title: string;
  /** Items: their text as written, backslash escapes and all. */
  written?: string;
  /** The link destination as written (decoded, without angle brackets); none for a group. */
  target?: string;
  /** The link's title attribute (`[Title](page.md "Attribute")`). */
  tooltip?: string;
  /** Computed pages: the YAML of their code block, without its indentation. */
  yaml?: string;
  children: SummaryEntry[];
}

const ITEM =
  /^(\s*)[*+-]\s+\[((?:\\.|[^\]\\])*)\]\(\s*(<[^>]*>|[^\s)]*)(?:\s+"((?:\\.|[^"\\])*)")?\s*\)\s*$/;
const FENCED_ITEM = /^(\s*)[*+-]\s+(`{3,}|~{3,})\s*yaml\s*$/;
const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;
const TEXT_ITEM = /^(\s*)[*+-]\s+(\S.*?)\s*$/;

/**
 * The page tree of a SUMMARY.md: nested list items are subpages (by indentation), `##`
 * headings (or deeper) start a group holding the items below them; the `#` title of the file
 * is ignored. An item holding a YAML code block is a computed page (GitBook writes the source
 * of its OpenAPI reference so). A list item without a link is a `text` entry holding its
 * nested items.
 */
export function parseSummary(text: string): SummaryEntry[] {
  const top: SummaryEntry[] = [];
  let section = top;
  // Open list items, innermost last, with the indentation of their bullet.
  let stack: { indent: number; entry: SummaryEntry }[] = [];
  const lines = text.split(/\r?\n/);
  const place = (indent: number, entry: SummaryEntry) => {
    while (stack.length > 0 && stack[stack.length - 1].indent >= indent) stack.pop();
    (stack.length > 0 ? stack[stack.length - 1].entry.children : section).push(entry);
    stack.push({ indent, entry });
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\t/g, '    ');
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
    const fenced = FENCED_ITEM.exec(line);
    if (fenced) {
      const fence = fenced[2];
      const block: string[] = [];
      for (i++; i < lines.length; i++) {
        const inner = lines[i].replace(/\t/g, '    ');
        const closing = inner.trim();
        if (closing.length >= fence.length && closing === fence[0].repeat(closing.length)) break;
        block.push(inner);
      }
      place(fenced[1].length, {
        kind: 'computed',
        title: '',
        yaml: dedent(block),
        children: [],
      });
      continue;
    }
    const item = ITEM.exec(line);
    if (!item) {
      const text = TEXT_ITEM.exec(line);
      if (text) {
        place(text[1].length, {
          kind: 'text',
          title: text[2].replace(/\\(.)/g, '$1'),
          written: text[2],
          children: [],
        });
      }
      continue;
    }
    place(item[1].length, {
      kind: 'page',
      title: item[2].replace(/\\(.)/g, '$1').trim(),
      written: item[2],
      target: decodeTarget(item[3]),
      ...(item[4] !== undefined ? { tooltip: item[4].replace(/\\(.)/g, '$1') } : {}),
      children: [],
    });
  }
  return top;
}

/** Lines without the indentation they all share, as one text ending with a line end. */
function dedent(lines: string[]): string {
  const indents = lines
    .filter((line) => line.trim() !== '')
    .map((line) => /^ */.exec(line)![0].length);
  const shared = indents.length > 0 ? Math.min(...indents) : 0;
  return (
    lines.map((line) => line.slice(Math.min(shared, /^ */.exec(line)![0].length))).join('\n') + '\n'
  );
}

function decodeTarget(raw: string): string {
  const bare = raw.startsWith('<') && raw.endsWith('>') ? raw.slice(1, -1) : raw;
  try {
    return decodeURI(bare);
  } catch {
    return bare;
  }
}
