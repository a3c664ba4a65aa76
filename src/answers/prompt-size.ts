import type { ChatMessage } from '../platform/ai/chat-completions';

/** Characters of a conversation as sent (the contents; roles and JSON around them aside). */
export function promptChars(messages: ChatMessage[]): number {
  return messages.reduce((sum, message) => sum + message.content.length, 0);
}

/**
 * `texts` shortened by `excess` characters in all, the longest first: each cut to one length,
 * the largest at which they lose enough (a cut text ends in `…`). Texts shorter than it stay
 * whole, so one long page gives way before several short ones.
 */
export function cutTexts(texts: string[], excess: number): string[] {
  if (excess <= 0) return texts;
  const total = texts.reduce((sum, text) => sum + text.length, 0);
  const keep = total - excess;
  if (keep <= 0) return texts.map(() => '');
  // The largest length `cap` with sum(min(length, cap) + 1 for each cut) <= keep.
  let low = 0;
  let high = Math.max(...texts.map((text) => text.length));
  const kept = (cap: number) =>
    texts.reduce((sum, text) => sum + (text.length <= cap ? text.length : cap + 1), 0);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (kept(mid) <= keep) low = mid;
    else high = mid - 1;
  }
  return texts.map((text) =>
    text.length <= low ? text : low === 0 ? '' : `${text.slice(0, low)}…`,
  );
}

/**
 * The conversation `build` makes of `parts` (sources' texts, instructions), with the parts cut
 * (cutTexts) so that it is `maxChars` at most, when the rest of it leaves room.
 */
export function fitPrompt(
  parts: string[],
  build: (parts: string[]) => ChatMessage[],
  maxChars: number,
): ChatMessage[] {
  const messages = build(parts);
  const excess = promptChars(messages) - maxChars;
  return excess <= 0 ? messages : build(cutTexts(parts, excess));
}

/**
 * The conversation `build` makes of the first of `items` (page titles, in order) that fit in
 * `maxChars`: the last are left out until it does (one is always kept).
 */
export function fitList(
  items: string[],
  build: (items: string[]) => ChatMessage[],
  maxChars: number,
): ChatMessage[] {
  let count = items.length;
  let messages = build(items);
  while (count > 1 && promptChars(messages) > maxChars) {
    count--;
    messages = build(items.slice(0, count));
  }
  return messages;
}
