import { isStopWord } from './text-terms';

/** Words of a phrase, at most. */
const MAX_PHRASE_WORDS = 3;
/** A phrase grows into a longer one that at least this share of its texts say. */
const EXPAND_SHARE = 0.5;
/** Words that say nothing of a topic in a phrase, beside the stop words of text-terms. */
const PHRASE_STOP_WORDS = new Set(
  'new old correct wrong same different other whole arrived return returns affected anymore com net org www'.split(
    ' ',
  ),
);

export interface KeyPhrase {
  /** As written most often in the texts ("SSO login", "password reset"). */
  text: string;
  /** Texts (issues) that contain it. */
  count: number;
}

/**
 * The key phrases shared by `texts` (the issues of one cluster), in the manner of RAKE (Rose et
 * al., 2010): candidates are runs of content words between punctuation and stop words, and their
 * 1- to 3-word n-grams; phrases rank by the number of texts that contain them, and a phrase grows
 * into a longer one that at least half of its texts say ("password" → "password reset"). Whole words only,
 * as they are written (the commonest spelling, so acronyms keep their capitals); never stems.
 * Deterministic: ties go to the longer phrase, then alphabetical order.
 */
export function keyPhrases(texts: string[], limit: number): KeyPhrase[] {
  const counts = new Map<string, number>();
  const spellings = new Map<string, Map<string, number>>();
  for (const text of texts) {
    const seen = new Set<string>();
    for (const run of candidateRuns(text)) {
      for (let size = 1; size <= MAX_PHRASE_WORDS; size++) {
        for (let start = 0; start + size <= run.length; start++) {
          const written = run.slice(start, start + size);
          const key = written.map((word) => word.toLowerCase()).join(' ');
          const forms = spellings.get(key) ?? new Map<string, number>();
          const spelling = written.join(' ');
          forms.set(spelling, (forms.get(spelling) ?? 0) + 1);
          spellings.set(key, forms);
          if (seen.has(key)) continue;
          seen.add(key);
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
      }
    }
  }
  const order = (a: string, b: string) =>
    counts.get(b)! - counts.get(a)! ||
    b.split(' ').length - a.split(' ').length ||
    (a < b ? -1 : a > b ? 1 : 0);
  const ranked = [...counts.keys()].sort(order);
  const within = (inner: string, outer: string) => ` ${outer} `.includes(` ${inner} `);
  const chosen: string[] = [];
  for (const candidate of ranked) {
    if (chosen.length >= limit) break;
    if (counts.get(candidate)! < 2 && texts.length > 1) break;
    // "password" grows into "password reset" when enough of its texts say the longer phrase.
    let phrase = candidate;
    for (;;) {
      const longer = ranked.find(
        (other) =>
          other !== phrase &&
          within(phrase, other) &&
          counts.get(other)! >= EXPAND_SHARE * counts.get(phrase)!,
      );
      if (!longer) break;
      phrase = longer;
    }
    if (chosen.some((other) => within(phrase, other) || within(other, phrase))) continue;
    chosen.push(phrase);
  }
  return chosen.map((key) => ({ text: spellingOf(spellings.get(key)!), count: counts.get(key)! }));
}

/** Runs of content words of `text`, as written: split at punctuation, numbers and stop words. */
function candidateRuns(text: string): string[][] {
  const runs: string[][] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length > 0) runs.push(run);
    run = [];
  };
  const tokens = text
    .replace(/https?:\/\/\S+|\S+@\S+|\b[\w-]+(\.[\w-]+)+\b/g, ' . ')
    .match(/\p{L}[\p{L}'’-]*|[^\s\p{L}]+/gu);
  let sentenceStart = true;
  for (const token of tokens ?? []) {
    const word = token.replace(/[’]/g, "'").replace(/['-]+$/, '');
    const lower = word.toLowerCase();
    const isWord = /^\p{L}/u.test(word);
    const initial = sentenceStart;
    sentenceStart = !isWord && /[.!?:]/.test(token);
    if (
      !isWord ||
      lower.includes("'") ||
      lower.length < 3 ||
      isStopWord(lower) ||
      PHRASE_STOP_WORDS.has(lower)
    ) {
      flush();
      continue;
    }
    // "Search does not…": a capital that only starts the sentence is not the word's spelling.
    run.push(initial && /^\p{Lu}\p{Ll}+$/u.test(word) ? lower : word);
  }
  flush();
  return runs;
}

/** The spelling seen most often; on ties the one with more capitals (acronyms), then the first in order. */
function spellingOf(forms: Map<string, number>): string {
  const capitals = (text: string) => (text.match(/\p{Lu}/gu) ?? []).length;
  return [...forms].sort(
    ([a, na], [b, nb]) => nb - na || capitals(b) - capitals(a) || (a < b ? -1 : a > b ? 1 : 0),
  )[0][0];
}
