/**
 * Words to stems for comparing short support texts: lower case, markup and stop words out
 * (English function words and the small talk of support conversations, which says nothing of
 * the topic), then a light suffix stemmer so "logging", "logged" and "logs" meet at "log".
 * Deliberately small: no dictionary, no external package.
 */

const STOP_WORDS = new Set(
  `a about above after again against all am an and any are aren't as at be because been before
  being below between both but by can can't cannot could couldn't did didn't do does doesn't
  doing don't down during each few for from further had hadn't has hasn't have haven't having he
  her here hers herself him himself his how i i'd i'll i'm i've if in into is isn't it it's its
  itself let's me more most mustn't my myself no nor not of off on once only or other ought our
  ours ourselves out over own same shan't she should shouldn't so some such than that that's the
  their theirs them themselves then there there's these they they're this those through to too
  under until up very was wasn't we we're were weren't what what's when where which while who
  whom why will with won't would wouldn't you you're your yours yourself yourselves
  hi hello hey dear team thanks thank thx please help helping anyone somebody someone
  know just also still really get got getting try tried trying want wanted need needs needed
  like seems seem seemed way ok okay yes yeah sure good great use using used able unable
  anything something everything nothing thing things even though since again ago today yesterday
  now already keep keeps kept one two every always never time times day days us let lets make
  made go going went sometimes right well much many lot support issue issues problem problems
  question questions regards best cheers appreciated appreciate work works working worked
  happen happens happening happened see saw look looks looking`.split(/\s+/),
);

/** Whether `word` (lower case) says nothing of a topic: a function word or support small talk. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** Surface words of `text`, lower case, without markup, urls or numbers. */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/<[^>]*>/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/[’‘]/g, "'")
    .split(/[^a-z']+/)
    .map((word) => word.replace(/^'+|'+$/g, ''))
    .filter((word) => word.length > 1);
}

/** The content words of `text`: no stop words, no very short words. */
export function contentWords(text: string): string[] {
  return words(text).filter((word) => word.length > 2 && !STOP_WORDS.has(word));
}

const VOWEL = /[aeiouy]/;

/** A light English stemmer: plurals, -ing, -ed, -ly and a few derivational suffixes. */
export function stem(word: string): string {
  let w = word.replace(/'s$/, '').replace(/'/g, '');
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is'))
    w = w.slice(0, -1);
  for (const suffix of ['ational', 'ization', 'ation', 'ement', 'ment', 'ness', 'ful']) {
    if (
      w.endsWith(suffix) &&
      VOWEL.test(w.slice(0, -suffix.length)) &&
      w.length - suffix.length >= 3
    ) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  for (const suffix of ['ing', 'ed', 'ly']) {
    const base = w.slice(0, -suffix.length);
    if (w.endsWith(suffix) && base.length >= 3 && VOWEL.test(base)) {
      w = base;
      // "logging" → "logg" → "log"; "failed" stays "fail".
      if (/([^aeiouslz])\1$/.test(w)) w = w.slice(0, -1);
      break;
    }
  }
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  if (w.endsWith('y') && w.length > 4) w = `${w.slice(0, -1)}i`;
  return w;
}

/** Stem → occurrences in `text`. */
export function termCounts(text: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const word of contentWords(text)) {
    const term = stem(word);
    if (term.length < 3 || STOP_WORDS.has(term)) continue;
    counts[term] = (counts[term] ?? 0) + 1;
  }
  return counts;
}

/** Stem → the surface word seen most often for it (ties: the shortest, then alphabetical). */
export function surfaceForms(texts: string[]): Map<string, string> {
  const seen = new Map<string, Map<string, number>>();
  for (const text of texts) {
    for (const word of contentWords(text)) {
      const term = stem(word);
      const forms = seen.get(term) ?? new Map<string, number>();
      forms.set(word, (forms.get(word) ?? 0) + 1);
      seen.set(term, forms);
    }
  }
  const result = new Map<string, string>();
  for (const [term, forms] of seen) {
    const best = [...forms].sort(
      ([a, na], [b, nb]) => nb - na || a.length - b.length || a.localeCompare(b),
    )[0][0];
    result.set(term, best);
  }
  return result;
}
