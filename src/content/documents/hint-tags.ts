import { HINT_STYLES, HintStyle } from './document';

/**
 * GitBook's Liquid-style hint tags are not markdown, so they are found on the text before it
 * is parsed: the markdown is cut into plain segments and hint segments, each parsed on its own.
 * Only top-level tags are recognized (on their own line, indented by at most three spaces,
 * outside fenced code); a hint inside a list item or a quote stays text.
 */
export type MarkdownSegment =
  { kind: 'markdown'; text: string } | { kind: 'hint'; style: HintStyle; text: string };

const HINT_OPEN = /^ {0,3}\{%\s*hint\s+style="([a-z]+)"\s*%\}\s*$/;
const HINT_CLOSE = /^ {0,3}\{%\s*endhint\s*%\}\s*$/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;

/** Tracks whether a line is inside fenced code, where tags are only text. */
class FenceTracker {
  private fence: string | undefined;

  /** Feeds a line; true when the line belongs to a fence (including its delimiters). */
  inFence(line: string): boolean {
    if (this.fence) {
      const closing = new RegExp(`^ {0,3}${this.fence[0]}{${this.fence.length},}\\s*$`);
      if (closing.test(line)) this.fence = undefined;
      return true;
    }
    const open = FENCE_OPEN.exec(line);
    if (open) this.fence = open[1];
    return Boolean(open);
  }
}

function hintStyle(line: string): HintStyle | undefined {
  const style = HINT_OPEN.exec(line)?.[1];
  return HINT_STYLES.find((known) => known === style);
}

/** The index of the line closing a hint opened before `from`, or -1. */
function findHintClose(lines: string[], from: number): number {
  const fences = new FenceTracker();
  for (let i = from; i < lines.length; i++) {
    if (!fences.inFence(lines[i]) && HINT_CLOSE.test(lines[i])) return i;
  }
  return -1;
}

export function splitHintTags(markdown: string): MarkdownSegment[] {
  const lines = markdown.split(/\r?\n/);
  const segments: MarkdownSegment[] = [];
  const fences = new FenceTracker();
  let plain: string[] = [];
  const flush = () => {
    if (plain.some((line) => line.trim() !== '')) {
      segments.push({ kind: 'markdown', text: plain.join('\n') });
    }
    plain = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const style = fences.inFence(line) ? undefined : hintStyle(line);
    const close = style ? findHintClose(lines, i + 1) : -1;
    if (!style || close < 0) {
      plain.push(line);
      continue;
    }
    flush();
    segments.push({ kind: 'hint', style, text: lines.slice(i + 1, close).join('\n') });
    i = close;
  }
  flush();
  return segments;
}
