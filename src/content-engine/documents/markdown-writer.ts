import type { Root } from 'mdast';
import { INLINE_UNSAFE } from './inline-syntax';

/*
 * GitBook's markdown writer. GitBook's Git Sync writes its documents with mdast-util-to-markdown
 * 2.1 and these options: its output has their every trace (`*` bullets, `_` emphasis, `***`
 * rules, `[url](url)` links, items of several blocks indented to four columns, `\_` wherever an
 * underscore is, `&#x20;` for a space before a line end, `&#x66;` for a letter next to a `**`
 * that could not close otherwise, aligned table columns). So Bindery writes with the same
 * library at that version (`mdast-util-to-markdown-2-1`, pinned: 2.2 stopped escaping
 * underscores inside words and chooses emphasis markers itself), and GFM's writers but literal
 * autolinks, which GitBook neither reads nor escapes.
 *
 * GitBook's block tags and HTML containers are `gitbookContainer` nodes (to-mdast.ts): their
 * children are written as any container's, so the blank lines between blocks and the empty
 * paragraphs (written as nothing, between blank lines) come out as GitBook's do.
 */

/** A block written around its children: `{% hint %}` … `{% endhint %}`, `<details>`, … */
export interface GitbookContainer {
  type: 'gitbookContainer';
  /** The opening line(s) and the closing line. */
  open: string;
  close: string;
  /** Blank lines between the opening, the children and the closing (`<details>`'s). */
  blank?: boolean;
  children: Root['children'];
}

/**
 * A mark written as HTML around markdown (`<mark style="…">**x**</mark>`, `<kbd>`, `<sup>`,
 * `<sub>`). A node of its own, not two `html` nodes: the writer would put a line end before an
 * `html` node on the line before (after a hard break), GitBook's does not.
 */
export interface GitbookHtmlMark {
  type: 'gitbookHtmlMark';
  open: string;
  close: string;
  children: unknown[];
}

interface WriterState {
  containerFlow: (parent: unknown, info: unknown) => string;
  containerPhrasing: (parent: unknown, info: Record<string, unknown>) => string;
}

interface ToMarkdownModule {
  toMarkdown: (tree: Root, options: Record<string, unknown>) => string;
}

function gitbookContainer(
  node: GitbookContainer,
  _parent: unknown,
  state: WriterState,
  info: unknown,
): string {
  const between = node.blank ? '\n\n' : '\n';
  return `${node.open}${between}${state.containerFlow(node, info)}${between}${node.close}`;
}

function gitbookHtmlMark(
  node: GitbookHtmlMark,
  _parent: unknown,
  state: WriterState,
  info: Record<string, unknown>,
): string {
  const inner = state.containerPhrasing(node, { ...info, before: '>', after: '<' });
  return `${node.open}${inner}${node.close}`;
}
gitbookHtmlMark.peek = () => '<';

/** The writer: mdast (with GitBook's containers) to GitBook's markdown. */
export async function loadMarkdownWriter(): Promise<(root: Root) => string> {
  const [{ toMarkdown }, footnote, strikethrough, table, taskListItem] = await Promise.all([
    import('mdast-util-to-markdown-2-1') as Promise<unknown> as Promise<ToMarkdownModule>,
    import('mdast-util-gfm-footnote'),
    import('mdast-util-gfm-strikethrough'),
    import('mdast-util-gfm-table'),
    import('mdast-util-gfm-task-list-item'),
  ]);
  const options = {
    bullet: '*',
    emphasis: '_',
    strong: '*',
    rule: '*',
    listItemIndent: 'mixed',
    resourceLink: true,
    fences: true,
    extensions: [
      footnote.gfmFootnoteToMarkdown(),
      strikethrough.gfmStrikethroughToMarkdown(),
      table.gfmTableToMarkdown(),
      taskListItem.gfmTaskListItemToMarkdown(),
      { handlers: { gitbookContainer, gitbookHtmlMark } },
    ],
    unsafe: INLINE_UNSAFE,
  };
  return (root) => toMarkdown(root, options);
}
