import { foldWithSources } from './text-folding';
import { CJK, SOUTHEAST_ASIAN, type QueryTerm } from './text-segmentation';

/** How a hit is marked in an excerpt: Markdown strong emphasis, or not at all. */
export type HitMarking = 'markdown' | 'none';

export interface ExcerptOptions {
  /** Longest excerpt, in characters, without the ellipses and marks. */
  maxLength: number;
  /** Characters of context kept before the first hit, at most. */
  before: number;
  marking: HitMarking;
  /** The language the section is written in (folding, as the index folds it). */
  language: string | null;
}

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const ELLIPSIS = '…';

/**
 * The passage of `body` around its best hit: the window of `maxLength` characters holding the
 * most distinct terms (a term or one of its corrections), starting up to `before` characters
 * ahead of its first hit (at a word's start), with `…` where it cuts the text and each hit
 * marked as `marking` says (a body whose hit is within `2 × before` characters of its start is
 * shown from its start). A body without a hit (a section found by its title) gives its
 * opening; an empty one gives ''.
 *
 * Hits are found on the folded text, so `parametres` marks `paramètres`. A word is hit by a
 * term it starts with, or that it shares all but the last three letters with (an inflection:
 * `configuring` marks `configuration`, as the stemmer matched them); CJK and Thai terms are
 * found as substrings.
 */
export function excerpt(
  body: string,
  terms: QueryTerm[],
  corrections: ReadonlyMap<string, string[]>,
  options: ExcerptOptions,
): string {
  const hits = findHits(body, terms, corrections, options.language);
  if (hits.length === 0) return cut(body, 0, options.maxLength, [], 'none');
  let best = { start: hits[0].start, score: -1 };
  for (const hit of hits) {
    const end = hit.start + options.maxLength - options.before;
    const score = new Set(
      hits.filter((h) => h.start >= hit.start && h.end <= end).map((h) => h.term),
    ).size;
    if (score > best.score) best = { start: hit.start, score };
  }
  // A hit near the start is shown from the start: cutting would save a few words only.
  const start =
    best.start <= 2 * options.before ? 0 : wordStart(body, best.start - options.before, best.start);
  return cut(body, start, options.maxLength, hits, options.marking);
}

interface Hit {
  start: number;
  end: number;
  /** The term (or the term a correction is of) that hit. */
  term: string;
}

function findHits(
  body: string,
  terms: QueryTerm[],
  corrections: ReadonlyMap<string, string[]>,
  language: string | null,
): Hit[] {
  const folded = foldWithSources(body, language);
  const source = (i: number) => folded.sources[i];
  const sourceEnd = (i: number) => {
    const at = folded.sources[i];
    return at + (body.codePointAt(at)! > 0xffff ? 2 : 1);
  };
  const found: Hit[] = [];
  const variants = terms.flatMap((term) =>
    [term.text, ...(corrections.get(term.text) ?? [])].map((text) => ({ text, term: term.text })),
  );
  for (const variant of variants.filter((v) => isSegmented(v.text))) {
    for (let at = folded.text.indexOf(variant.text); at >= 0;) {
      found.push({
        start: source(at),
        end: sourceEnd(at + variant.text.length - 1),
        term: variant.term,
      });
      at = folded.text.indexOf(variant.text, at + 1);
    }
  }
  const words = variants.filter((v) => !isSegmented(v.text));
  if (words.length > 0) {
    for (const match of folded.text.matchAll(WORD)) {
      const hit = words.find((v) => wordMatches(match[0], v.text));
      if (!hit) continue;
      const end = match.index + match[0].length - 1;
      found.push({ start: source(match.index), end: sourceEnd(end), term: hit.term });
    }
  }
  return merge(found);
}

const isSegmented = (text: string) => CJK.test(text) || SOUTHEAST_ASIAN.test(text);

function wordMatches(word: string, term: string): boolean {
  if (word.startsWith(term)) return true;
  let common = 0;
  while (common < word.length && common < term.length && word[common] === term[common]) {
    common += 1;
  }
  return term.length >= 5 && common >= Math.max(4, term.length - 3);
}

/** Hits in text order, overlapping or touching ones joined (bigrams of one word). */
function merge(hits: Hit[]): Hit[] {
  const sorted = [...hits].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Hit[] = [];
  for (const hit of sorted) {
    const last = merged[merged.length - 1];
    if (last && hit.start <= last.end) last.end = Math.max(last.end, hit.end);
    else merged.push({ ...hit });
  }
  return merged;
}

/** The start of the word at or after `from` (not past `limit`), so no word is cut in two. */
function wordStart(body: string, from: number, limit: number): number {
  if (from === 0) return 0;
  for (let at = from; at < limit; at++) {
    if (/\s/u.test(body[at - 1]) && !/\s/u.test(body[at])) return at;
  }
  return from;
}

/** `body` from `start`, at most `maxLength` characters (ending at a word's end), marked. */
function cut(
  body: string,
  start: number,
  maxLength: number,
  hits: Hit[],
  marking: HitMarking,
): string {
  let end = Math.min(body.length, start + maxLength);
  if (end < body.length) {
    const space = body.lastIndexOf(' ', end);
    if (space > start + maxLength / 2) end = space;
  }
  let out = '';
  let at = start;
  for (const hit of hits) {
    if (hit.end <= start || hit.start >= end) continue;
    const from = Math.max(hit.start, start);
    const to = Math.min(hit.end, end);
    out += body.slice(at, from);
    out += marking === 'markdown' ? `**${body.slice(from, to)}**` : body.slice(from, to);
    at = to;
  }
  out += body.slice(at, end);
  return `${start > 0 ? ELLIPSIS : ''}${out.trimEnd()}${end < body.length ? ELLIPSIS : ''}`;
}
