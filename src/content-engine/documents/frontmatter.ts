import { CORE_SCHEMA, load } from 'js-yaml';

/** Markdown split at its frontmatter: the YAML block's mapping (null: none) and the rest. */
export interface MarkdownWithFrontmatter {
  frontmatter: Record<string, unknown> | null;
  body: string;
}

/** A `---` fence on the very first line, YAML, and a closing `---` (or `...`) line. */
const FRONTMATTER = /^\uFEFF?---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/**
 * Splits YAML frontmatter (as Git-synced GitBook pages and most static-site tools write it) off
 * markdown. Only YAML's core schema is read: plain scalars, lists and mappings, no custom tags
 * and no dates, so nothing in the block can construct anything else. An empty block (or one of
 * comments only) is an empty mapping. A block that is not a YAML mapping is no frontmatter:
 * markdown may well open with a thematic break (`---`) and have another one further down.
 */
export function splitFrontmatter(markdown: string): MarkdownWithFrontmatter {
  const none = { frontmatter: null, body: markdown };
  const block = frontmatterBlock(markdown);
  if (!block) {
    return none;
  }
  const { yaml } = block;
  let data: unknown = {};
  // Blank or comments only: an empty mapping (the parser wants a document).
  if (!yaml.split(/\r?\n/).every((line) => /^\s*(#.*)?$/.test(line))) {
    try {
      data = load(yaml, { schema: CORE_SCHEMA, maxDepth: 20 });
    } catch {
      return none;
    }
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return none;
  }
  return {
    frontmatter: data as Record<string, unknown>,
    body: markdown.slice(block.text.length),
  };
}

/**
 * The frontmatter block opening `markdown` as written: its whole text (fences and line ends
 * included) and the YAML between the fences (`''` for an empty block), or null when the
 * markdown opens with no such block. Whether the YAML is a mapping is splitFrontmatter's to say.
 */
export function frontmatterBlock(markdown: string): { text: string; yaml: string } | null {
  const match = FRONTMATTER.exec(markdown);
  return match ? { text: match[0], yaml: match[1] ?? '' } : null;
}
